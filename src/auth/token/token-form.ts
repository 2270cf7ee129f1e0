import { type OAuthRefusal, oauthRefusal, type TokenForm } from '../oauth.js';

/**
 * The body of `/token` (RFC 6749 §3.2): form-encoded, each parameter at most once
 * (§3.1 "MUST NOT be included more than once").
 */
export function readTokenForm(body: unknown): { ok: true; form: TokenForm } | OAuthRefusal {
  if (typeof body !== 'object' || body === null) {
    return oauthRefusal('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  }
  const fields = body as Record<string, unknown>;
  const repeated = Object.keys(fields).filter((name) => typeof fields[name] !== 'string');
  if (repeated.length > 0) {
    return oauthRefusal('invalid_request', `Parameters given more than once: ${repeated.join(', ')}.`);
  }
  return { ok: true, form: fields as TokenForm };
}
