import { GRANT_TYPES, type Grant, type GrantType, type OAuthRefusal, oauthRefusal } from '../oauth.js';

/** The grant a `grant_type` names (RFC 6749 §4): one of ours, or the error that says why not. */
export function selectGrant(
  grants: Record<GrantType, Grant>,
  grantType: string | undefined,
): { ok: true; grant: Grant } | OAuthRefusal {
  if (grantType === undefined) return oauthRefusal('invalid_request', 'grant_type is missing.');
  if (!(GRANT_TYPES as readonly string[]).includes(grantType)) {
    return oauthRefusal('unsupported_grant_type', 'Use authorization_code or refresh_token.');
  }
  return { ok: true, grant: grants[grantType as GrantType] };
}
