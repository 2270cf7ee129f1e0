import { oauthRefusal, type StepResult } from '../oauth.js';
import type { AuthorizeQuery } from './authorize-query.js';

/** The longest `nonce` carried into the ID token (OIDC Core §3.1.2.1 sets no limit; we do). */
export const MAX_NONCE_LENGTH = 512;

export function checkNonce(query: AuthorizeQuery): StepResult<{ nonce: string | null }> {
  const nonce = query.single('nonce');
  if (nonce !== undefined && nonce.length > MAX_NONCE_LENGTH) {
    return oauthRefusal('invalid_request', `The nonce has more than ${MAX_NONCE_LENGTH} characters.`);
  }
  return { ok: true, nonce: nonce ?? null };
}
