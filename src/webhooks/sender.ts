import type { LookupFunction } from 'node:net';
import { Pool } from 'undici';
import type { CheckedUrl } from './address-guard.js';

/** How long one attempt may take, connection to last byte: 10 s (docs/webhooks.md). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Attempts in flight at once per receiver (host, port and address); the others of a pass wait for a connection. */
export const MAX_SOCKETS = 32;
/** Receivers whose connections are kept (the least recently used beyond it are closed). */
const MAX_POOLS = 256;

/** The receiver's answer is read up to this much (kept for nothing: only the status counts). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendResult {
  /** The HTTP status, or null when no response came (connection error, timeout). */
  status: number | null;
  error: string | null;
}

/**
 * Connections kept open between attempts (a burst of events to one receiver reuses them), per
 * origin and checked address: a connection is reused only for the host and port it was opened
 * to, at the address that was checked when it was opened. undici's client, not `node:http`'s:
 * its requests cost the event loop less (about 10 % less per delivery, claim and outcome included; ADR 0058).
 */
const pools = new Map<string, Pool>();

function poolFor(target: CheckedUrl): Pool {
  const key = `${target.url.origin} ${target.address}`;
  const known = pools.get(key);
  if (known !== undefined) return known;
  const { address, family } = target;
  // The socket connects to the checked address, never resolving the host again; TLS still
  // names the host (SNI, certificate).
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    } else callback(null, address, family);
  };
  if (pools.size >= MAX_POOLS) {
    const [oldest, pool] = pools.entries().next().value as [string, Pool];
    pools.delete(oldest);
    pool.close().catch(() => undefined);
  }
  const pool = new Pool(target.url.origin, { connections: MAX_SOCKETS, connect: { lookup: pinned } });
  pools.set(key, pool);
  return pool;
}

/**
 * POSTs the body to the checked address, with the host's name for TLS and the `Host` header.
 * Redirects are not followed: a 3xx is a failed attempt like any non-2xx.
 */
export async function sendWebhook(
  target: CheckedUrl,
  headers: Record<string, string>,
  body: string,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<SendResult> {
  const { url } = target;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await poolFor(target).request({
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'user-agent': 'Vitrine-Webhooks/1',
      },
      body,
      signal: abort.signal,
    });
    const status = response.statusCode;
    // Read and dropped; a longer answer closes the connection.
    await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
    return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` };
  } catch (error) {
    if (abort.signal.aborted) return { status: null, error: `timeout after ${timeoutMs / 1000} s` };
    const { code, message } = error as NodeJS.ErrnoException;
    return { status: null, error: `connection error: ${code ?? message}` };
  } finally {
    clearTimeout(timer);
  }
}
