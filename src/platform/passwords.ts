import { hash, verify } from '@node-rs/argon2';
import { normaliseEmail } from './email.js';

/**
 * Passwords are hashed with argon2id at OWASP's recommended strength (19 MiB, 2 passes,
 * 1 lane; OWASP Password Storage Cheat Sheet). Only the encoded hash is ever stored.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

export const MIN_PASSWORD_LENGTH = 12;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export function verifyPassword(encoded: string, password: string): Promise<boolean> {
  return verify(encoded, password);
}

export const MAX_PASSWORD_LENGTH = 256;

/** Why a new password is refused, or null when it is acceptable (NIST SP 800-63B: length, not composition). */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `the password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `the password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  if (new Set(password).size < 4) return 'the password must not repeat one or two characters';
  return null;
}

// Verified against when an email is unknown, so a failed login costs the same time either way.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('vitrine-timing-equaliser-not-a-password');
  return dummyHash;
}

/**
 * Signs in by email and password in the same time whether the address is impossible, unknown or
 * known: exactly one argon2 verification runs (against a dummy hash when there is no account).
 * `lookup` gets the normalised email; an account without a password never matches.
 */
export async function checkCredentials<T>(
  email: string,
  password: string,
  lookup: (email: string) => Promise<{ account: T; passwordHash: string | null } | undefined>,
): Promise<T | null> {
  let normalised = '';
  try {
    normalised = normaliseEmail(email);
  } catch {
    // An impossible address still costs the one hash check below.
  }
  const found = normalised ? await lookup(normalised) : undefined;
  const matches = await verifyPassword(found?.passwordHash ?? (await dummyPasswordHash()), password).catch(
    () => false,
  );
  return found?.passwordHash && matches ? found.account : null;
}
