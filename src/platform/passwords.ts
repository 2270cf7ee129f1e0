import { hash, verify } from '@node-rs/argon2';

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
