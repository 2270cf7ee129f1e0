import type { Environment } from '../platform/environment.js';

// The users capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

export type UserState = 'active' | 'disabled';

/** An end user of one environment: never the password, only its argon2id hash. */
export interface User {
  id: string;
  environment: Environment;
  email: string;
  name: string;
  state: UserState;
  createdAt: number;
  passwordChangedAt: number;
  disabledAt: number | null;
  /** When the user followed the link mailed to them (issue 27); null: not yet verified. */
  emailVerifiedAt: number | null;
}
