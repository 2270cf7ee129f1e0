import { ERRORS, PAGE_ERRORS } from './errors.js';
import { OAUTH_ERRORS } from './oauth-errors.js';

/** Renders `docs/errors.md` from the error table; `npm run docs:generate` writes it. */
export function renderErrorDocs(): string {
  const rows = Object.entries(ERRORS).map(
    ([code, e]) => `| [\`${code}\`](#${code}) | ${e.status} | ${e.title} |`,
  );
  const sections = Object.entries(ERRORS).map(
    ([code, e]) => `## ${code}\n\n**${e.status} ${e.title}.** ${e.help}\n`,
  );
  const pageRows = Object.entries(PAGE_ERRORS).map(
    ([code, e]) => `| <a id="page-${code}"></a>\`${code}\` | ${e.status} | ${e.title} | ${e.help} |`,
  );
  const oauthRows = Object.entries(OAUTH_ERRORS).map(
    ([code, e]) => `| <a id="oauth-${code}"></a>\`${code}\` | \`${e.error}\` | ${e.status} | ${e.help} |`,
  );
  return [
    '# Errors',
    '',
    '<!-- Generated from src/http/errors.ts by `npm run docs:generate`. Do not edit by hand. -->',
    '',
    'Every error is `application/problem+json` (RFC 9457):',
    '',
    '```json',
    '{',
    '  "type": "http://localhost:8081/docs/errors#invalid_parameter",',
    '  "title": "Invalid parameter",',
    '  "status": 400,',
    '  "detail": "limit must be <= 100",',
    '  "instance": "/v1/offers/",',
    '  "code": "invalid_parameter",',
    '  "requestId": "req_4fQ0mJ2k9VZ1c8XhT3aB",',
    '  "errors": [{ "parameter": "limit", "message": "must be <= 100" }]',
    '}',
    '```',
    '',
    "The `type` URL is the error's entry in this table as every instance serves it, at `<origin>/docs/errors#<code>`.",
    'Clients branch on `code`, which never changes meaning. `detail` is for people and may be reworded.',
    'Quote `requestId` (also sent as the `X-Request-Id` header) when reporting a problem.',
    '',
    '| code | status | title |',
    '|---|---|---|',
    ...rows,
    '',
    ...sections,
    '# Errors on pages',
    '',
    'The HTML pages (the sign-in pages at `{auth_url}`, the developer portal, the operator console) are',
    'for people, not programs: an error is a page with its status, a title, a sentence and, in small',
    'print, its code. The codes come from the same table (`PAGE_ERRORS` in src/http/errors.ts). A',
    'code that also names an API error keeps its meaning but takes the status below; an API error a',
    'page meets that is not listed here (a body too large, the database down) shows with its status',
    'and title above.',
    '',
    '| code | status | title | meaning |',
    '|---|---|---|---|',
    ...pageRows,
    '',
    '# Errors of the OAuth door',
    '',
    'The OAuth 2.0 / OpenID Connect endpoints answer as their RFCs ask, not with problem+json:',
    '`{"error": "<error>", "error_description": "…"}` with `Cache-Control: no-store` at `/token`,',
    '`/userinfo` and the client authentication of `/revoke`, with the status below; at `/authorize`, an',
    'error redirect to the verified `redirect_uri` carrying `error`, `error_description`, `state` and',
    '`iss` (until the client and its redirect URI are verified, an error is a page, above). The codes',
    'come from `OAUTH_ERRORS` in src/http/oauth-errors.ts; clients branch on `error`.',
    '',
    '| code | `error` | status | meaning |',
    '|---|---|---|---|',
    ...oauthRows,
    '',
  ].join('\n');
}
