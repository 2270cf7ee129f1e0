import type { Environment } from '../platform/environment.js';

/** User agents are kept to this many characters (as for web sessions). */
export const MAX_USER_AGENT = 300;

/** A listing shows this many sessions, the newest. */
export const MAX_LISTED_SESSIONS = 100;

/** Where a login came from: the browser that signed in. */
export interface LoginOrigin {
  ip: string;
  userAgent: string;
}

/** The login origin of a request, its user agent cut to a sane length. */
export function loginOrigin(request: { ip: string; headers: { 'user-agent'?: string } }): LoginOrigin {
  return { ip: request.ip, userAgent: (request.headers['user-agent'] ?? '').slice(0, MAX_USER_AGENT) };
}

/** One login of an end user as it is listed: a token family, nothing secret. */
export interface UserSession {
  /** The family id (`rtf_…`), the `sid` claim of its access tokens. */
  id: string;
  keyId: string;
  projectName: string;
  createdAt: number;
  lastUsedAt: number;
  ip: string;
  userAgent: string;
}

export interface TokenFamilyStore {
  /** A login issued its first tokens; `expiresAt` is when the last of them expires. */
  recordFamily(family: {
    familyId: string;
    userId: string;
    keyId: string;
    environment: Environment;
    at: number;
    expiresAt: number;
    origin: LoginOrigin;
  }): Promise<void>;
  /** A refresh: last used now, and the family lives at least until `expiresAt`. */
  touchFamily(familyId: string, at: number, expiresAt: number): Promise<void>;
  /** The user's live sessions of the environment, newest first (at most MAX_LISTED_SESSIONS), or the one named. */
  activeSessions(
    userId: string,
    environment: Environment,
    now: number,
    familyId?: string,
  ): Promise<UserSession[]>;
}
