import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Keyset cursors. A cursor holds the sort-key values of the last offer of a page, so the next
 * page starts strictly after it: inserts, updates and deletes elsewhere in the result never
 * shift, skip or repeat rows the way an offset would. It also holds a fingerprint of the query
 * it belongs to, so a cursor pasted onto another query is refused instead of silently wrong.
 *
 * Opaque to clients: `<signature><payload>`, both base64url. Issue 13: the payload is
 * authenticated with an HMAC-SHA256 under a key derived from the master secret, so only
 * cursors this service issued reach a store (a tampered one used to reach SQL with wrong
 * types, or make a `sort=distance` page walk ~510 queries). Every instance sharing the
 * master secret accepts every other's cursors. The decoded contents are still checked
 * (arity, types, finite and bounded numbers, short id-like strings) as a second line.
 */
import type { CursorValue } from '../search/engine.js';

export type { CursorValue };

interface CursorPayload {
  v: 1;
  f: string;
  k: CursorValue[];
  /** Relevance under a ranking tie-break: it (`attr.NAME:desc`); absent: none. */
  r?: string;
}

/** 128 bits of HMAC-SHA256: forging one is out of reach, and cursors stay short. */
const SIGNATURE_BYTES = 16;
const SIGNATURE_CHARS = Math.ceil((SIGNATURE_BYTES * 4) / 3); // base64url, unpadded: 22
/** Sort keys are times in ms, prices in units, distances in km, tiers: all far below this. */
const MAX_KEY_MAGNITUDE = 1e16;
const KEY_STRING = /^[A-Za-z0-9_-]{1,64}$/;
const NOT_OURS = 'is not a cursor returned by this API';

/** The cursor-signing key: HKDF-SHA256 of the master secret, labelled for this one use. */
export function cursorKeyFrom(masterSecret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterSecret, Buffer.alloc(0), 'vitrine:offer-cursor', 32));
}

export function queryFingerprint(normalisedQuery: unknown): string {
  return createHash('sha256').update(JSON.stringify(normalisedQuery)).digest('base64url').slice(0, 12);
}

function sign(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);
}

export function encodeCursor(
  key: Buffer,
  fingerprint: string,
  keys: CursorValue[],
  ranking: string | null = null,
): string {
  const payload: CursorPayload = { v: 1, f: fingerprint, k: keys, ...(ranking ? { r: ranking } : {}) };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${sign(key, body).toString('base64url')}${body}`;
}

export type DecodedCursor = { ok: true; keys: CursorValue[] } | { ok: false; message: string };

const validKey = (k: unknown): k is CursorValue =>
  (typeof k === 'string' && KEY_STRING.test(k)) ||
  (typeof k === 'number' && Number.isFinite(k) && Math.abs(k) <= MAX_KEY_MAGNITUDE);

/**
 * `ranking`: the tie-break a relevance page is ordered by now (null: none). A cursor issued
 * under another one is refused plainly (its keys are of another order), not misread.
 */
export function decodeCursor(
  key: Buffer,
  cursor: string,
  fingerprint: string,
  arity: number,
  ranking: string | null = null,
): DecodedCursor {
  const signature = Buffer.from(cursor.slice(0, SIGNATURE_CHARS), 'base64url');
  const body = cursor.slice(SIGNATURE_CHARS);
  if (
    body.length === 0 ||
    signature.length !== SIGNATURE_BYTES ||
    !timingSafeEqual(signature, sign(key, body))
  ) {
    return { ok: false, message: NOT_OURS };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, message: NOT_OURS };
  }
  const p = payload as Partial<CursorPayload> | null;
  if (p?.v === 1 && typeof p.f === 'string' && p.f === fingerprint && (p.r ?? null) !== ranking) {
    return {
      ok: false,
      message:
        'was issued before the ranking tie-break changed (vitrine settings); search again without a cursor',
    };
  }
  if (
    p?.v !== 1 ||
    typeof p.f !== 'string' ||
    !Array.isArray(p.k) ||
    p.k.length !== arity ||
    !p.k.every(validKey)
  ) {
    return { ok: false, message: NOT_OURS };
  }
  if (p.f !== fingerprint) {
    return { ok: false, message: 'belongs to a different query (same q, filters and sort are required)' };
  }
  return { ok: true, keys: p.k };
}
