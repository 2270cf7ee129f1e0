import { oauthRefusal, S256_CHALLENGE, type StepResult } from '../oauth.js';
import type { AuthorizeQuery } from './authorize-query.js';

/** RFC 7636 §4.3 and RFC 9700 §2.1.1: PKCE is required, S256 only (`plain` is refused). */
export function checkPkce(query: AuthorizeQuery): StepResult<{ challenge: string }> {
  const challenge = query.single('code_challenge');
  const method = query.single('code_challenge_method');
  if (challenge === undefined || method === undefined) {
    return oauthRefusal(
      'invalid_request',
      'PKCE is required: send code_challenge with code_challenge_method=S256.',
    );
  }
  if (method !== 'S256')
    return oauthRefusal('invalid_request', 'Only code_challenge_method=S256 is supported.');
  if (!S256_CHALLENGE.test(challenge)) {
    return oauthRefusal(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the verifier (43 characters).',
    );
  }
  return { ok: true, challenge };
}
