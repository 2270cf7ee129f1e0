import { oauthRefusal, type StepResult } from '../oauth.js';
import type { AuthorizeQuery } from './authorize-query.js';

/** RFC 6749 §3.1.1: the code flow only (`response_type=code`). */
export function checkResponseType(query: AuthorizeQuery): StepResult {
  const responseType = query.single('response_type');
  if (responseType === undefined) return oauthRefusal('invalid_request', 'response_type is missing.');
  if (responseType !== 'code') {
    return oauthRefusal('unsupported_response_type', 'Only response_type=code is supported.');
  }
  return { ok: true };
}
