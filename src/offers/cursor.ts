import { createHash } from 'node:crypto';

/**
 * Keyset cursors. A cursor holds the sort-key values of the last offer of a page, so the next
 * page starts strictly after it: inserts, updates and deletes elsewhere in the result never
 * shift, skip or repeat rows the way an offset would. It also holds a fingerprint of the query
 * it belongs to, so a cursor pasted onto another query is refused instead of silently wrong.
 *
 * Opaque to clients (base64url JSON); nothing in it is secret, and tampering can at worst
 * start a page at another position of the same result set the caller may read anyway.
 */
export type CursorValue = string | number;

interface CursorPayload {
  v: 1;
  f: string;
  k: CursorValue[];
}

export function queryFingerprint(normalisedQuery: unknown): string {
  return createHash('sha256').update(JSON.stringify(normalisedQuery)).digest('base64url').slice(0, 12);
}

export function encodeCursor(fingerprint: string, keys: CursorValue[]): string {
  const payload: CursorPayload = { v: 1, f: fingerprint, k: keys };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export type DecodedCursor = { ok: true; keys: CursorValue[] } | { ok: false; message: string };

export function decodeCursor(cursor: string, fingerprint: string, arity: number): DecodedCursor {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, message: 'is not a cursor returned by this API' };
  }
  const p = payload as Partial<CursorPayload> | null;
  if (
    p?.v !== 1 ||
    typeof p.f !== 'string' ||
    !Array.isArray(p.k) ||
    p.k.length !== arity ||
    !p.k.every((k) => typeof k === 'string' || (typeof k === 'number' && Number.isFinite(k)))
  ) {
    return { ok: false, message: 'is not a cursor returned by this API' };
  }
  if (p.f !== fingerprint) {
    return { ok: false, message: 'belongs to a different query (same q, filters and sort are required)' };
  }
  return { ok: true, keys: p.k };
}
