import { oauthRefusal, type StepResult } from '../oauth.js';
import type { AuthorizeQuery } from './authorize-query.js';

/** RFC 6749 §3.1: no parameter more than once (`client_id` and `redirect_uri` were checked first). */
export function checkRepeated(query: AuthorizeQuery): StepResult {
  if (query.repeated.length === 0) return { ok: true };
  return oauthRefusal('invalid_request', `Parameters given more than once: ${query.repeated.join(', ')}.`);
}
