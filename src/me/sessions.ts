import type { RefreshTokenStore } from '../auth/refresh-token-store.js';
import type { UserSession } from '../auth/token-families.js';
import { ProblemError } from '../http/errors.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { User } from '../users/model.js';

/** An end user's sessions (logins, token families) as the end-user API shows them. */
export interface MeSessions {
  /** Live sessions of this environment, newest first; `current` is the calling token's. */
  sessions(
    user: User,
    environment: Environment,
    current: string | null,
  ): Promise<(UserSession & { current: boolean })[]>;
  /**
   * Ends one of the user's live sessions: its refresh tokens are revoked and its access tokens
   * refused within a second (the revocation path of `/revoke`). `session_not_found` otherwise.
   */
  endSession(user: User, environment: Environment, id: string): Promise<void>;
}

export function createMeSessions(deps: {
  families: Pick<RefreshTokenStore, 'activeSessions' | 'revokeFamily'>;
  clock: Clock;
}): MeSessions {
  const { families, clock } = deps;
  return {
    async sessions(user, environment, current) {
      const listed = await families.activeSessions(user.id, environment, clock.now());
      return listed.map((s) => ({ ...s, current: s.id === current }));
    },
    async endSession(user, environment, id) {
      const now = clock.now();
      const [session] = await families.activeSessions(user.id, environment, now, id);
      // Someone else's session, or one already ended, looks exactly like one that never was.
      if (!session) throw new ProblemError('session_not_found', `You have no active session ${id}.`);
      await families.revokeFamily(session.id, 'ended_by_user', now);
    },
  };
}
