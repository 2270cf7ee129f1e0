// The developers capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

export interface Developer {
  id: string;
  email: string;
  name: string;
  createdAt: number;
  /** Set when the account was disabled: it can no longer sign in to the portal. */
  disabledAt: number | null;
  /** When the developer followed the link mailed to them (issue 27); null: not yet verified. */
  emailVerifiedAt: number | null;
}
