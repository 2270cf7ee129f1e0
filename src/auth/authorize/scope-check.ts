import { oauthRefusal, parseScope, type Scope, type StepResult } from '../oauth.js';
import type { AuthorizeQuery } from './authorize-query.js';

/** RFC 6749 §3.3: the scopes asked for, each known; an unknown one is refused, not dropped. */
export function checkScope(query: AuthorizeQuery): StepResult<{ scopes: Scope[] }> {
  const scope = parseScope(query.single('scope'));
  if (!scope.ok) return oauthRefusal('invalid_scope', `Unknown scope: ${scope.unknown}.`);
  return scope;
}
