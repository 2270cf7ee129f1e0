// The operators capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

/** An operator: an account with the operator role, who signs in to the console. */
export interface Operator {
  id: string;
  email: string;
  name: string;
  createdAt: number;
  /** Set when the account was disabled: it can no longer sign in. */
  disabledAt: number | null;
}
