import { hash, randomBytes, randomFillSync } from 'node:crypto';

/**
 * Prefixed identifiers say what they are (`key_…`, `prj_…`): a support engineer reading a log line
 * or an integrator reading a response never has to guess which table an id belongs to.
 */
export type IdPrefix =
  | 'dev'
  | 'prj'
  | 'key'
  | 'off'
  | 'req'
  | 'usr'
  | 'sig'
  | 'rtk'
  | 'rtf'
  | 'svs'
  // Issue 5: operators, web sessions, key applications, audit entries.
  | 'opr'
  | 'wss'
  | 'app'
  | 'aud'
  // Issue 27: mail outbox messages.
  | 'mail'
  // Issue 23: search synonyms.
  | 'syn'
  // Issue 24: webhook endpoints and messages (a message id is the `webhook-id` header).
  | 'whe'
  | 'msg';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 string (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: bytes at or above it would bias the first characters.
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/**
 * The same uniform base62 strings, drawn from a buffer of CSPRNG bytes refilled `poolBytes` at a
 * time: one `randomFillSync` per ~100 ids instead of one `randomBytes` per id. For ids made on
 * every request (request ids, issue #3); secrets (keys, tokens) keep `randomBase62`, so no
 * secret ever sits in a long-lived buffer.
 */
export function createRandomBase62Pool(poolBytes = 4096): (length: number) => string {
  const pool = Buffer.alloc(poolBytes);
  let offset = pool.length;
  return (length) => {
    let out = '';
    while (out.length < length) {
      if (offset === pool.length) {
        randomFillSync(pool);
        offset = 0;
      }
      const byte = pool[offset++] as number;
      if (byte < 248) out += BASE62[byte % 62];
    }
    return out;
  };
}

/** Fixed-width base62 encoding of an unsigned integer. */
export function toBase62(value: number, width: number): string {
  let n = value;
  let out = '';
  for (let i = 0; i < width; i += 1) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** 20 base62 characters ≈ 119 bits: unguessable and collision-free at any realistic volume. */
const ID_CHARACTERS = 20;

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(ID_CHARACTERS)}`;
}

/**
 * Ids of one prefix as `newId` makes them, drawn from a pool (`createRandomBase62Pool`): for ids
 * made on every request or in bursts (request ids, webhook message ids), never for secrets.
 */
export function createPooledIds(prefix: IdPrefix): () => string {
  const random = createRandomBase62Pool();
  return () => `${prefix}_${random(ID_CHARACTERS)}`;
}

/** A stable id derived from a natural key, so re-running an import or seed reuses the same ids. */
export function derivedId(prefix: IdPrefix, naturalKey: string): string {
  // One-shot hash: a third of the cost of createHash().update().digest() per id (bulk imports).
  const digest = hash('sha256', naturalKey, 'buffer');
  let out = '';
  for (const byte of digest) {
    if (byte < 248) out += BASE62[byte % 62];
    if (out.length === 20) break;
  }
  return `${prefix}_${out}`;
}
