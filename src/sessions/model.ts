// The sessions capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

export type SessionKind = 'developer' | 'operator';

export interface WebSession {
  id: string;
  kind: SessionKind;
  accountId: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  /** Issue 27: the client address and user agent at sign-in (the account's list of sessions). */
  ip: string;
  userAgent: string;
  /** Issue 27: signed in by password, the second factor still due: a code, or an enrolment. */
  pending: SessionPending;
}

export type SessionPending = 'code' | 'enrol' | null;
