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
