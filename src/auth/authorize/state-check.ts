import { MAX_STATE_LENGTH } from '../login-ticket.js';
import { oauthRefusal, type StepResult } from '../oauth.js';
import type { AuthorizeQuery } from './authorize-query.js';

/** The `state` carried back to the client with the code (RFC 6749 §4.1.2), as long as `/connect`'s. */
export function checkState(query: AuthorizeQuery): StepResult<{ state: string | null }> {
  const state = query.single('state');
  if (state !== undefined && state.length > MAX_STATE_LENGTH) {
    return oauthRefusal('invalid_request', `The state has more than ${MAX_STATE_LENGTH} characters.`);
  }
  return { ok: true, state: state ?? null };
}

/** The `state` an error redirect echoes (RFC 6749 §4.1.2.1): only one that would pass the check. */
export function echoedState(query: AuthorizeQuery): string | null {
  const state = query.single('state');
  return !query.repeated.includes('state') && state !== undefined && state.length <= MAX_STATE_LENGTH
    ? state
    : null;
}
