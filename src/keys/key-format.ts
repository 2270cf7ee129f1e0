import { hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { ENV_KEY_TAG, type Environment } from '../platform/environment.js';
import { randomBase62, toBase62 } from '../platform/ids.js';

/**
 * API key format: `vk_<env>_<random>_<checksum>`, and `vk_pub_<env>_<random>_<checksum>`
 * for publishable keys (issue 16): the kind is readable in the key itself, so a secret scanner
 * can tell a leaked secret key (an incident) from a publishable one (meant to be public).
 *
 * - `<random>`: 32 base62 characters, about 190 bits from the CSPRNG (at least 128 are required).
 * - `<checksum>`: CRC-32 of everything before it, 6 base62 characters. It is not a secret and
 *   not a MAC: it lets clients, secret scanners and our own hot path reject a mistyped or
 *   truncated key without touching the database (the same idea as GitHub's token format).
 *
 * Keys carry ~190 bits of entropy, so a fast SHA-256 is the right hash for storage: a slow
 * password hash protects low-entropy secrets and would only cost latency on every request.
 */
const KEY_PATTERN = /^vk_(pub_)?(prod|test)_([0-9A-Za-z]{32})_([0-9A-Za-z]{6})$/;
const TAG_TO_ENV = { prod: 'production', test: 'testing' } as const satisfies Record<string, Environment>;

/** `secret` keys live on servers; `publishable` keys in browsers and apps (issue 16). */
export type KeyKind = 'secret' | 'publishable';

const KIND_TAG: Record<KeyKind, string> = { secret: '', publishable: 'pub_' };

export function generateApiKey(environment: Environment, kind: KeyKind = 'secret'): string {
  const body = `vk_${KIND_TAG[kind]}${ENV_KEY_TAG[environment]}_${randomBase62(32)}`;
  return `${body}_${checksum(body)}`;
}

function checksum(body: string): string {
  return toBase62(crc32(body), 6);
}

export type ParsedApiKey =
  | { ok: true; environment: Environment; kind: KeyKind }
  | { ok: false; reason: 'malformed' | 'checksum' };

/** Checks shape and checksum only; whether the key exists is the verifier's business. */
export function parseApiKey(raw: string): ParsedApiKey {
  const match = KEY_PATTERN.exec(raw);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, pub = '', tag, random, sum] = match as unknown as [
    string,
    string | undefined,
    'prod' | 'test',
    string,
    string,
  ];
  if (checksum(`vk_${pub}${tag}_${random}`) !== sum) return { ok: false, reason: 'checksum' };
  return { ok: true, environment: TAG_TO_ENV[tag], kind: pub ? 'publishable' : 'secret' };
}

export function hashApiKey(raw: string): string {
  // One-shot `crypto.hash` (Node ≥ 20.12): the same digest as createHash().update().digest()
  // without a Hash object per call — this runs on every API request (issue #3).
  return hash('sha256', raw, 'hex');
}

/** What lists show of a key so its owner can recognise it: `vk_test_…a1B2`, `vk_pub_test_…a1B2`. */
export function keyHint(raw: string): string {
  const parts = raw.split('_');
  const publishable = parts[1] === 'pub';
  const random = parts[publishable ? 3 : 2] ?? '';
  const prefix = parts.slice(0, publishable ? 3 : 2).join('_');
  return `${prefix}_…${random.slice(-4)}`;
}
