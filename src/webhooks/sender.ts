import type { LookupFunction } from 'node:net';
import { type Dispatcher, Pool } from 'undici';
import type { CheckedUrl } from './address-guard.js';

/** How long one attempt may take, connection to last byte: 10 s (docs/webhooks.md). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Connections per receiver (host, port and address); the attempts of a pass beyond them wait for one. */
export const MAX_SOCKETS = 32;
/**
 * Pipelined attempts (`pipelined`) go over connections of their own, fewer, each carrying up to
 * `PIPELINING` requests written ahead of the answers to those before them (HTTP/1.1 pipelining):
 * a burst then costs this process and the receiver fewer reads, writes and wake-ups per delivery
 * (ADR 0062). The receiver still answers each connection's requests one after another, in order.
 */
const PIPELINED_SOCKETS = 8;
const PIPELINING = 8;
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

function poolFor(target: CheckedUrl, pipelined: boolean): Pool {
  const key = `${target.url.origin} ${target.address}${pipelined ? ' pipelined' : ''}`;
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
  const pool = new Pool(target.url.origin, {
    connections: pipelined ? PIPELINED_SOCKETS : MAX_SOCKETS,
    pipelining: pipelined ? PIPELINING : 1,
    connect: { lookup: pinned },
  });
  pools.set(key, pool);
  return pool;
}

const resultOf = (status: number): SendResult => ({
  status,
  error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
});

/**
 * One attempt as undici's dispatcher sees it (its `dispatch` handler): the status, the answer
 * counted and dropped, the outcome settled once. Not `Pool.request`: that one makes, per request,
 * an async resource, a readable stream for the answer, and takes an abort signal for the timeout
 * (an `AbortController`, its listeners), which together cost the event loop more than the rest of
 * the request (ADR 0060).
 */
class Attempt implements Dispatcher.DispatchHandlers {
  private status: number | null = null;
  private bytes = 0;
  private abort: ((error?: Error) => void) | null = null;
  private settled = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly timeoutMs: number,
    private resolve: ((result: SendResult) => void) | null,
  ) {
    this.timer = setTimeout(expire, timeoutMs, this);
  }

  settle(result: SendResult): void {
    if (this.settled) return;
    this.settled = true;
    const resolve = this.resolve;
    this.resolve = null;
    clearTimeout(this.timer);
    resolve?.(result);
  }

  /** The deadline passed: given up, the connection closed (or never used, if still waiting for one). */
  expire(): void {
    this.settle({ status: null, error: `timeout after ${this.timeoutMs / 1000} s` });
    this.abort?.(new Error('attempt timed out'));
  }

  onConnect(abort: (error?: Error) => void): void {
    // Given up while it waited for a connection: it is not sent.
    if (this.settled) abort(new Error('attempt timed out'));
    else this.abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    if (statusCode >= 200) this.status = statusCode; // 1xx: informational, the answer follows
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    if (this.bytes < MAX_RESPONSE_BYTES) return true;
    // A longer answer is not read: the status is the outcome, the connection is closed.
    this.settle(resultOf(this.status as number));
    this.abort?.(new Error('answer too long'));
    return false;
  }

  onComplete(): void {
    this.settle(
      this.status === null ? { status: null, error: 'connection error: no answer' } : resultOf(this.status),
    );
  }

  onError(error: Error): void {
    const { code, message } = error as NodeJS.ErrnoException;
    // After the status, a connection cut in the answer's body still counts its status.
    this.settle(
      this.status !== null
        ? resultOf(this.status)
        : { status: null, error: `connection error: ${code ?? message}` },
    );
  }
}

/** The attempt's timer fired. */
function expire(attempt: Attempt): void {
  attempt.expire();
}

/**
 * POSTs the body to the checked address, with the host's name for TLS and the `Host` header.
 * Redirects are not followed: a 3xx is a failed attempt like any non-2xx. The attempt ends within
 * `timeoutMs` of the call, whatever the receiver does: waiting for a connection, for the answers
 * before it on its connection, for the status, or for the end of the answer.
 *
 * `pipelined`: the request may be written on a connection still waiting for earlier answers (a
 * webhook may be sent twice: it keeps its `webhook-id`). Should the connection close before its
 * answer, undici fails the first request waiting and writes the others again on a new
 * connection: the receiver may get one twice, as at-least-once delivery allows (docs/webhooks.md).
 */
export function sendWebhook(
  target: CheckedUrl,
  headers: Record<string, string>,
  body: string,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
  pipelined = false,
): Promise<SendResult> {
  const { url } = target;
  return new Promise<SendResult>((resolve) => {
    poolFor(target, pipelined).dispatch(
      {
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        // undici writes a POST ahead of earlier answers only when told it is idempotent.
        idempotent: pipelined,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'user-agent': 'Vitrine-Webhooks/1',
        },
        body,
      },
      new Attempt(timeoutMs, resolve),
    );
  });
}
