import { oauthRefusal, type StepResult } from '../oauth.js';
import type { AuthorizeQuery } from './authorize-query.js';

/** No session outlives a login here, so a login can never be silent (OIDC Core §3.1.2.6). */
export function checkPrompt(query: AuthorizeQuery): StepResult {
  if ((query.single('prompt') ?? '').split(' ').includes('none')) {
    return oauthRefusal('login_required', 'The user must sign in.');
  }
  return { ok: true };
}
