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
}
