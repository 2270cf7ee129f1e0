import { oauthRefusal, type StepResult } from '../oauth.js';
import type { AuthorizeQuery } from './authorize-query.js';

/** OIDC Core §6: request objects, by value or by reference, are not taken here (§6.3 errors). */
export function checkRequestObject(query: AuthorizeQuery): StepResult {
  if (query.single('request') !== undefined) {
    return oauthRefusal('request_not_supported', 'Request objects are not supported.');
  }
  if (query.single('request_uri') !== undefined) {
    return oauthRefusal('request_uri_not_supported', 'request_uri is not supported.');
  }
  return { ok: true };
}
