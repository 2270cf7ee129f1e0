import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import type { SessionKind, SessionPending, WebSession } from './model.js';
import type { SessionStore } from './store.js';

/**
 * Server-side sessions of the portal and the console (issue 5). The browser holds a random
 * 256-bit token; the database holds only its SHA-256, so a leaked table signs nobody in.
 * A session ends after `idleMs` without a request, after `absoluteMs` in any case (OWASP
 * Session Management Cheat Sheet), or on sign-out. Each carries its own CSRF token.
 */
export interface SessionService {
  start(
    kind: SessionKind,
    accountId: string,
    details?: { ip?: string; userAgent?: string; pending?: SessionPending },
  ): Promise<{ token: string; session: WebSession }>;
  /** Issue 27: the second factor is done; the session becomes a full one. */
  complete(session: WebSession): Promise<void>;
  /** Issue 27: the live sessions of an account, most recently seen first. */
  list(kind: SessionKind, accountId: string): Promise<WebSession[]>;
  /** Issue 27: ends one session of this account; false when it is not theirs or not live. */
  endOne(kind: SessionKind, accountId: string, id: string): Promise<boolean>;
  /** The live session of this kind for a cookie value, or null (unknown, ended, idle or too old). */
  resume(kind: SessionKind, token: string | undefined): Promise<WebSession | null>;
  end(session: WebSession): Promise<void>;
  /** Ends every session of an account (disabled, or its password changed); how many ended. */
  endAll(kind: SessionKind, accountId: string): Promise<number>;
  /** Constant-time check of a form's CSRF token against the session's. */
  csrfMatches(session: WebSession, given: string | undefined): boolean;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export function createSessionService(deps: {
  store: SessionStore;
  clock: Clock;
  idleMs: number;
  absoluteMs: number;
}): SessionService {
  return {
    async start(kind, accountId, details = {}) {
      const token = randomBytes(32).toString('base64url');
      const now = deps.clock.now();
      const session: WebSession = {
        id: newId('wss'),
        kind,
        accountId,
        csrfToken: randomBytes(32).toString('base64url'),
        createdAt: now,
        lastSeenAt: now,
        ip: (details.ip ?? '').slice(0, 64),
        userAgent: (details.userAgent ?? '').slice(0, 300),
        pending: details.pending ?? null,
      };
      await deps.store.insert(session, sha256(token));
      return { token, session };
    },
    async resume(kind, token) {
      if (!token || token.length > 100) return null;
      const session = await deps.store.findLive(sha256(token));
      if (!session || session.kind !== kind) return null;
      const now = deps.clock.now();
      if (now - session.lastSeenAt >= deps.idleMs || now - session.createdAt >= deps.absoluteMs) {
        await deps.store.end(session.id, now);
        return null;
      }
      await deps.store.touch(session.id, now);
      return { ...session, lastSeenAt: now };
    },
    async end(session) {
      await deps.store.end(session.id, deps.clock.now());
    },
    complete: (session) => deps.store.clearPending(session.id),
    list: (kind, accountId) => deps.store.listLive(kind, accountId),
    endOne: (kind, accountId, id) => deps.store.endOne(kind, accountId, id, deps.clock.now()),
    endAll: (kind, accountId) => deps.store.endAll(kind, accountId, deps.clock.now()),
    csrfMatches(session, given) {
      const expected = Buffer.from(session.csrfToken);
      const actual = Buffer.from(given ?? '');
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
  };
}
