/**
 * The error table's third part (issue 26), beside `ERRORS` and `PAGE_ERRORS` (errors.ts): the
 * OAuth 2.0 / OpenID Connect door answers in the RFCs' words, not problem+json. Each stable code
 * names the `error` value on the wire and the status of a JSON answer (`/token` RFC 6749 §5.2,
 * `/userinfo` RFC 6750 §3.1, the client authentication of `/revoke`); at `/authorize`, once the
 * client and its redirect URI are verified, every error travels in a 303 redirect instead (RFC 6749
 * §4.1.2.1), whatever the status. Two codes may share a wire value (`server_error` for 500 and
 * 503). The steps of the door return these codes (src/auth/authorize/, src/auth/token/); the
 * routes turn them into answers, each in one place. `docs/errors.md` lists them too.
 */
export const OAUTH_ERRORS = {
  invalid_request: {
    status: 400,
    error: 'invalid_request',
    help: 'A parameter is missing, repeated, too long or malformed, the body is not form-encoded, or the client used two authentication methods (RFC 6749 §4.1.2.1, §5.2).',
  },
  invalid_client: {
    status: 401,
    error: 'invalid_client',
    help: 'Client authentication failed: no or malformed credentials, an unknown key id, a secret that is not the key of `client_id`, or a publishable key (RFC 6749 §5.2). Sent with `WWW-Authenticate: Basic`.',
  },
  invalid_grant: {
    status: 400,
    error: 'invalid_grant',
    help: 'The authorization code or refresh token is unknown, expired, revoked, already used, or bound to another client, redirect URI or PKCE verifier; the answer does not say which (RFC 6749 §5.2).',
  },
  unauthorized_client: {
    status: 400,
    error: 'unauthorized_client',
    help: 'The client may not use this grant: a refresh without the refresh permission (RFC 6749 §5.2).',
  },
  unsupported_grant_type: {
    status: 400,
    error: 'unsupported_grant_type',
    help: 'A `grant_type` other than `authorization_code` and `refresh_token` (RFC 6749 §5.2).',
  },
  unsupported_response_type: {
    status: 400,
    error: 'unsupported_response_type',
    help: 'A `response_type` other than `code` at `/authorize` (RFC 6749 §4.1.2.1).',
  },
  invalid_scope: {
    status: 400,
    error: 'invalid_scope',
    help: 'A `scope` value this server does not know; unknown values are refused, not dropped (RFC 6749 §3.3).',
  },
  request_not_supported: {
    status: 400,
    error: 'request_not_supported',
    help: 'A request object (`request`) at `/authorize`, which this server does not take (OpenID Connect Core §6.3).',
  },
  request_uri_not_supported: {
    status: 400,
    error: 'request_uri_not_supported',
    help: 'A `request_uri` at `/authorize`, which this server does not take (OpenID Connect Core §6.3).',
  },
  login_required: {
    status: 400,
    error: 'login_required',
    help: '`prompt=none` at `/authorize`: no session outlives a login here, so a login is never silent (OpenID Connect Core §3.1.2.6).',
  },
  invalid_token: {
    status: 401,
    error: 'invalid_token',
    help: 'The access token sent to `/userinfo` is missing, malformed, expired, or not good with its key (RFC 6750 §3.1).',
  },
  slow_down: {
    status: 429,
    error: 'slow_down',
    help: 'Too many failed client authentications from this address; wait before trying again.',
  },
  server_error: {
    status: 500,
    error: 'server_error',
    help: 'Something failed on our side; nothing about it is shown to the client.',
  },
  server_unavailable: {
    status: 503,
    error: 'server_error',
    help: 'A dependency (the database) cannot be reached right now, or this instance is shutting down. Retry with backoff.',
  },
} as const satisfies Record<string, { status: number; error: string; help: string }>;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;
