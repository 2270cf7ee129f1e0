/**
 * The one error table: every code a client can receive, with its HTTP status, its
 * title and what a client should do about it. `docs/errors.md` is generated from this table
 * (`npm run docs:generate`, scripts/generate-docs.ts) and test/docs.test.ts fails when the two
 * drift. The pages' part, `PAGE_ERRORS`, is generated into the same file, and so is the OAuth
 * door's, `OAUTH_ERRORS` (oauth-errors.ts).
 */
export const ERRORS = {
  invalid_parameter: {
    status: 400,
    title: 'Invalid parameter',
    help: 'A query parameter is unknown, repeated where it may not be, or has a bad value. `errors[]` names each offending parameter with the reason. Fix the request; retrying it unchanged fails again.',
  },
  malformed_body: {
    status: 400,
    title: 'Malformed request body',
    help: 'The body could not be parsed as its declared content type (for example broken JSON).',
  },
  api_key_conflict: {
    status: 400,
    title: 'Conflicting API keys',
    help: 'The request carried an API key both in the `apiKey` query parameter and in the `X-Api-Key` header, and they differ. Send one (the header is preferred: query strings end up in logs and browser history).',
  },
  api_key_missing: {
    status: 401,
    title: 'API key missing',
    help: 'Send your API key in the `X-Api-Key` header (or the `apiKey` query parameter).',
  },
  api_key_invalid: {
    status: 401,
    title: 'API key invalid',
    help: 'The key is malformed, fails its checksum (mistyped or truncated), or is unknown. Copy the key again from the developer portal.',
  },
  api_key_revoked: {
    status: 401,
    title: 'API key revoked',
    help: 'The key was revoked and will never work again. Apply for a new key on the developer portal.',
  },
  api_key_expired: {
    status: 401,
    title: 'API key expired',
    help: 'The key was issued with an expiry date that has passed. Apply for a new key on the developer portal.',
  },
  api_key_wrong_environment: {
    status: 403,
    title: 'API key of another environment',
    help: 'The key belongs to the other environment (the detail names it). Production keys work only on the production `{base_url}`, testing keys only on the testing one.',
  },
  api_key_scope: {
    status: 403,
    title: 'API key lacks the scope',
    help: 'The key may not call this endpoint. A publishable key (`vk_pub_…`) can only search (`GET /offers/`, `GET /offers/{id}`, `POST /multi-search`): call everything else from your server with a secret key. Writing offers (`POST /offers/import`, `DELETE /offers/by-external-id/…`) needs a secret key the operator granted the `offers:write` scope.',
  },
  origin_not_allowed: {
    status: 403,
    title: 'Origin not allowed for this key',
    help: "The request's `Origin` header names a site this publishable key does not list among its allowed origins (exact `scheme://host[:port]`). Add the origin to a key on the developer portal, or use a key issued for this site.",
  },
  token_missing: {
    status: 401,
    title: 'Access token missing',
    help: 'This endpoint acts for an end user: send `Authorization: Bearer <access token>` (from `{auth_url}/connect` or `/refresh`) together with the API key that obtained it.',
  },
  token_invalid: {
    status: 401,
    title: 'Access token invalid',
    help: 'The bearer token is malformed, its signature or algorithm is wrong, it was issued for another environment, audience or API key, its user is disabled, or the password changed since it was issued. Send the user through `{auth_url}/connect` again.',
  },
  token_expired: {
    status: 401,
    title: 'Access token expired',
    help: 'The access token is past its `exp` (60 s of clock skew are tolerated). Get a new one from `{auth_url}/refresh` with the refresh token, or send the user through `/connect` again. The response carries `WWW-Authenticate: Bearer error="invalid_token"`.',
  },
  refresh_not_permitted: {
    status: 403,
    title: 'Refresh not permitted',
    help: 'This API key does not have the refresh permission. Ask the operator to grant it; until then, send users through `{auth_url}/connect` when their access token expires.',
  },
  refresh_token_invalid: {
    status: 401,
    title: 'Refresh token invalid',
    help: 'The refresh token is malformed, unknown, or was issued to another API key or environment. Send the user through `{auth_url}/connect` again.',
  },
  refresh_token_expired: {
    status: 401,
    title: 'Refresh token expired',
    help: 'The refresh token is past its lifetime (`REFRESH_TOKEN_TTL`). Send the user through `{auth_url}/connect` again.',
  },
  refresh_token_revoked: {
    status: 401,
    title: 'Refresh token revoked',
    help: 'The refresh token was revoked: by `/revoke`, because its key was revoked or lost the refresh permission, because the user was disabled or changed their password, or because a spent token was reused (rotation on), which ends the whole login. Send the user through `{auth_url}/connect` again.',
  },
  offer_not_found: {
    status: 404,
    title: 'Offer not found',
    help: 'No offer with this id exists in this environment.',
  },
  saved_search_not_found: {
    status: 404,
    title: 'Saved search not found',
    help: 'The signed-in user has no saved search with this id.',
  },
  session_not_found: {
    status: 404,
    title: 'Session not found',
    help: 'The signed-in user has no active session with this id (it ended, expired, or is not theirs).',
  },
  webhook_not_found: {
    status: 404,
    title: 'Webhook endpoint not found',
    help: "The project has no webhook endpoint (or delivery) with this id in this environment; another project's endpoint looks exactly like one that does not exist.",
  },
  not_found: {
    status: 404,
    title: 'Not found',
    help: 'No resource lives at this path. The API reference at `/docs` lists every path.',
  },
  version_not_found: {
    status: 404,
    title: 'API version not found',
    help: 'The path names an API version this server does not serve; the detail lists the versions it serves.',
  },
  limit_reached: {
    status: 409,
    title: 'Limit reached',
    help: 'The signed-in user holds as many favorites, saved searches or offers as allowed (the detail says which and how many). Delete some first.',
  },
  webhook_disabled: {
    status: 409,
    title: 'Webhook endpoint disabled',
    help: 'The endpoint was disabled because every delivery failed for 5 days (the detail says the last error). Fix the receiver, then add the endpoint again.',
  },
  payload_too_large: {
    status: 413,
    title: 'Request body too large',
    help: 'The request body is larger than the server accepts (`BODY_LIMIT_BYTES`, 64 KiB by default).',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    help: 'The request body has a content type this endpoint does not accept.',
  },
  import_too_many_invalid_lines: {
    status: 422,
    title: 'Too many invalid lines',
    help: 'More lines of an offer import are invalid than `IMPORT_MAX_FAILED_LINES` allows (10 000 by default): the body is probably not offers in the expected format. The import stopped there; the valid lines before it were kept, and the detail counts them. Send a few lines first and fix what their `errors[]` say.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    help: "The key sent more requests than its plan allows (requests per second, bursts of up to one second's worth; `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on every answer show where it stands), or the client address sent too many requests with a missing or invalid key. Wait for the seconds in `Retry-After`, then retry; spread requests evenly.",
  },
  metrics_forbidden: {
    status: 403,
    title: 'Metrics not available to this caller',
    help: 'The `/metrics` endpoint needs `Authorization: Bearer <METRICS_TOKEN>`; when the operator set no `METRICS_TOKEN` it answers callers on the loopback interface only.',
  },
  bad_request: {
    status: 400,
    title: 'Malformed request',
    help: 'The HTTP request itself could not be read: a request line or URL with raw non-ASCII bytes or broken percent-encoding, an unknown method, or a broken header. Percent-encode the URL (UTF-8) and send a well-formed HTTP/1.1 request.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    help: 'Something lives at this path, but not for this method. The `Allow` header lists the methods it answers.',
  },
  uri_too_long: {
    status: 414,
    title: 'URI too long',
    help: 'A path segment (an id) is longer than any id Vitrine issues. Check the URL.',
  },
  headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    help: "The request line and headers together exceed the server's limit (16 KiB): usually an oversized cookie or query string. Send less; put long search input in fewer, shorter parameters.",
  },
  internal_error: {
    status: 500,
    title: 'Internal server error',
    help: 'Something failed on our side. Nothing about it is shown to the client; quote the `requestId` when you report it.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    help: 'A dependency (the database) cannot be reached right now, or this instance is shutting down (then the response also says `Connection: close`). Retry with backoff; the service recovers by itself, and behind a load balancer another instance answers.',
  },
} as const satisfies Record<string, { status: number; title: string; help: string }>;

export type ErrorCode = keyof typeof ERRORS;

/**
 * The same table's second part (issue 14): what the HTML pages — the auth server's sign-in
 * pages, the developer portal, the operator console — show a person, with the page's status and
 * title. A page shows its code in small print ("Error code: …"); people quote it to support. A
 * code that also exists above keeps its meaning but takes the page's status here (the login page
 * refuses an application's bad key with 400: the person in front of it did nothing wrong).
 * Problems raised on a page that are not listed here (a body too large, the database down) show
 * with the status and title of the API part.
 */
export const PAGE_ERRORS = {
  csrf_rejected: {
    status: 403,
    title: 'Request refused',
    help: 'The form was not sent from this site, or its CSRF token or sign-in ticket did not verify (the page was open in another browser, cookies are blocked, or it belongs to the other environment). Reload the page and try again.',
  },
  session_expired: {
    status: 403,
    title: 'Please sign in again',
    help: 'The portal or console session ended (idle too long, signed out elsewhere, or the account was disabled) before the form was sent. Sign in again, then repeat the action.',
  },
  login_expired: {
    status: 400,
    title: 'This sign-in page expired',
    help: 'The sign-in page was open longer than its ticket lives (10 minutes). Go back to the application and start the sign-in again.',
  },
  destination_not_allowed: {
    status: 400,
    title: 'This sign-in link is not valid',
    help: "The `destination` of a `/connect` link is missing, repeated, or not one of the project's registered redirect URIs. The application's developer registers it in the developer portal.",
  },
  invalid_state: {
    status: 400,
    title: 'This sign-in link is not valid',
    help: 'The `state` of a `/connect` link is repeated or longer than 512 characters.',
  },
  invalid_redirect_uri: {
    status: 400,
    title: 'This sign-in link is not valid',
    help: 'The `redirect_uri` of an `/authorize` link is missing, repeated, or not registered for the client. Nothing is redirected until it is verified (RFC 6749 §4.1.2.1).',
  },
  invalid_client: {
    status: 400,
    title: 'Sign-in is not available',
    help: 'The `client_id` of an `/authorize` link is missing, repeated, unknown, not active in this environment, or a publishable key (which signs nobody in).',
  },
  application_unavailable: {
    status: 400,
    title: 'Sign-in is not available',
    help: "Between the sign-in page and its form, the application's key was revoked, expired, or its destination was removed. Go back to the application and start again.",
  },
  api_key_missing: {
    status: 400,
    title: 'Sign-in is not available',
    help: "A `/connect` link without the application's API key. The application must send it (`apiKey`).",
  },
  api_key_invalid: {
    status: 400,
    title: 'Sign-in is not available',
    help: 'A `/connect` link with an API key that is malformed or unknown.',
  },
  api_key_revoked: {
    status: 400,
    title: 'Sign-in is not available',
    help: 'A `/connect` link with a revoked API key.',
  },
  api_key_expired: {
    status: 400,
    title: 'Sign-in is not available',
    help: 'A `/connect` link with an expired API key.',
  },
  api_key_wrong_environment: {
    status: 400,
    title: 'Sign-in is not available',
    help: 'A `/connect` link with an API key of the other environment.',
  },
  api_key_conflict: {
    status: 400,
    title: 'Sign-in is not available',
    help: 'A `/connect` link carrying two different API keys.',
  },
  api_key_scope: {
    status: 400,
    title: 'Sign-in is not available',
    help: 'A `/connect` link with a publishable key: sign-in needs the secret key (issue 16).',
  },
  rate_limited: {
    status: 429,
    title: 'Too many attempts',
    help: 'Too many invalid sign-in links or failed sign-ins from this address. Wait for the seconds in `Retry-After`.',
  },
  signup_disabled: {
    status: 404,
    title: 'Sign-up is closed',
    help: 'End users cannot create accounts in this environment (`SIGNUP_ENVIRONMENTS`); its operator creates them.',
  },
  already_revealed: {
    status: 410,
    title: 'Already shown',
    help: "An approved key's secret is shown once, on the developer's first reveal. Roll the key (or apply again) for a new secret.",
  },
  not_found: {
    status: 404,
    title: 'Page not found',
    help: "No page at this address, or it shows something that is not yours (another developer's project or key looks exactly like one that does not exist).",
  },
  invalid: {
    status: 400,
    title: 'That did not work',
    help: 'A form field has a value the action cannot take (the detail names it). Correct it and send the form again.',
  },
  conflict: {
    status: 409,
    title: 'That did not work',
    help: 'The action conflicts with what exists (an email already registered, a key no longer active). The detail says what.',
  },
  // Issue 27: reset and verification links, verified email, two-factor sign-in.
  link_invalid: {
    status: 400,
    title: 'This link does not work any more',
    help: 'A password-reset or email-verification link that is unknown, already used, replaced by a newer one, or expired (reset links live 30 minutes, verification links 7 days). Ask for a new one.',
  },
  email_unverified: {
    status: 403,
    title: 'Confirm your email address first',
    help: 'The action (applying for a production key; signing in where `USER_EMAIL_VERIFICATION=required`) waits until the account follows the link mailed to it. The page offers to send the link again.',
  },
} as const satisfies Record<string, { status: number; title: string; help: string }>;

export type PageErrorCode = keyof typeof PAGE_ERRORS;

/** The status and title a page shows for `code`: its page entry, else the API's. */
export function pageError(code: PageErrorCode | ErrorCode): { status: number; title: string } {
  return code in PAGE_ERRORS ? PAGE_ERRORS[code as PageErrorCode] : ERRORS[code as ErrorCode];
}

/** Path of the error reference every instance serves (an HTML page made from this table). */
export const ERROR_DOCS_PATH = '/docs/errors';

/** The `type` URL of a problem: the error's section on the instance that answered (`origin`). */
export function errorTypeUrl(code: ErrorCode, origin: string): string {
  return `${origin}${ERROR_DOCS_PATH}#${code}`;
}

export interface ParameterError {
  parameter: string;
  message: string;
}

/**
 * An expected failure with its stable code. Thrown inside a handler, it becomes a problem+json
 * response; its `detail` is shown to the client, so it never carries internal information.
 */
export class ProblemError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: ParameterError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
  }
}
