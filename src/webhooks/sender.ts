import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedUrl } from './address-guard.js';

/** How long one attempt may take, connection to last byte: 10 s (docs/webhooks.md). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Attempts in flight at once per receiver (host and port); the others of a pass wait for a socket. */
export const MAX_SOCKETS = 32;
/**
 * Connections kept open between attempts (a burst of events to one receiver reuses them). A
 * socket is reused only for the same host and port it was opened to, at an address that was
 * checked when it was opened.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
};

/** The receiver's answer is read up to this much (kept for nothing: only the status counts). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendResult {
  /** The HTTP status, or null when no response came (connection error, timeout). */
  status: number | null;
  error: string | null;
}

/**
 * POSTs the body to the checked address (never resolving the host again), with the host's name
 * for TLS (SNI, certificate) and the `Host` header. Redirects are not followed: a 3xx is a
 * failed attempt like any non-2xx.
 */
export function sendWebhook(
  target: CheckedUrl,
  headers: Record<string, string>,
  body: string,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<SendResult> {
  const { url, address, family } = target;
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    } else callback(null, address, family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: agents[url.protocol as 'http:' | 'https:'],
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Vitrine-Webhooks/1',
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const status = response.statusCode ?? null;
        const finish = () =>
          done({ status, error: status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}` });
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      done({ status: null, error: `timeout after ${timeoutMs / 1000} s` });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      done({ status: null, error: `connection error: ${error.code ?? error.message}` }),
    );
    request.end(body);
  });
}
