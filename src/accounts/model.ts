import type { Environment } from '../platform/environment.js';

// The accounts capability's domain types (issue 27): password reset, email verification,
// two-factor sign-in, for the three kinds of account.

/** Developers (portal), operators (console), end users (auth server of one environment). */
export type AccountKind = 'developer' | 'operator' | 'user';

export type TokenPurpose = 'reset' | 'verify';

/** Who a token or a second factor belongs to; `environment` for end users only. */
export interface AccountRef {
  kind: AccountKind;
  id: string;
  email: string;
  environment?: Environment;
}

/** Why a link's token is refused (each gets the same page: ask for a new link). */
export type TokenProblem = 'unknown' | 'used' | 'expired';

/** A reset or verification link lives 30 minutes (reset) or 7 days (verification). */
export const RESET_TTL_MS = 30 * 60_000;
export const VERIFY_TTL_MS = 7 * 86_400_000;
