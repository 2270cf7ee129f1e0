import { UsageError } from './usage-error.js';

// Deliberately loose: one @, something on each side, a dot in the domain. Real validation of an
// address is sending mail to it (the portal's job); this only catches obvious typos.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed, lower-cased email, or a `UsageError` for an impossible address. */
export function normaliseEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed) || trimmed.length > 254)
    throw new UsageError(`not a valid email address: ${email}`);
  return trimmed;
}
