import { VitrineError } from './errors.js';
import type { Problem } from './types.js';

/** Query values as the API takes them: repeatable parameters as arrays. */
export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

export interface TransportSettings {
  fetch: typeof fetch;
  /** Retries after `429` (waiting `Retry-After`) and after network errors on GET. */
  maxRetries: number;
  /** A `Retry-After` longer than this is not waited for: the `429` is thrown at once. */
  maxRetryDelayMs: number;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** Sent as JSON, or as a form when a URLSearchParams. */
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** Builds `url?query`, repeating array values (`category=a&category=b`) and skipping unset ones. */
export function withQuery(url: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const search = params.toString();
  return search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function abortError(signal: AbortSignal): VitrineError {
  return new VitrineError({
    status: 0,
    code: 'aborted',
    detail: 'The request was aborted.',
    cause: signal.reason,
  });
}

/** Waits `ms`, or rejects as soon as the signal fires. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string';

async function errorFrom(response: Response): Promise<VitrineError> {
  const requestId = response.headers.get('x-request-id');
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's page, say. Reported as such below.
  }
  if (isProblem(body)) {
    return new VitrineError({
      status: response.status,
      code: body.code,
      detail: body.detail,
      requestId: body.requestId ?? requestId,
      problem: body,
    });
  }
  return new VitrineError({
    status: response.status,
    code: 'unexpected_response',
    detail: `HTTP ${response.status} without a problem+json body`,
    requestId,
  });
}

/**
 * One API call: sends, retries what is safe to retry, and returns the parsed JSON body (or
 * undefined for `204`). Every failure becomes a `VitrineError`.
 */
export async function send<T>(settings: TransportSettings, spec: RequestSpec): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
  let body: string | URLSearchParams | undefined;
  if (spec.body instanceof URLSearchParams) body = spec.body;
  else if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    headers['content-type'] = 'application/json';
  }
  const url = withQuery(spec.url, spec.query);
  for (let attempt = 0; ; attempt += 1) {
    if (spec.signal?.aborted) throw abortError(spec.signal);
    let response: Response;
    try {
      response = await settings.fetch(url, {
        method: spec.method,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(spec.signal ? { signal: spec.signal } : {}),
      });
    } catch (error) {
      if (spec.signal?.aborted) throw abortError(spec.signal);
      // A GET changes nothing, so sending it again is safe; a write might have happened.
      if (spec.method === 'GET' && attempt < settings.maxRetries) {
        await sleep(Math.min(settings.maxRetryDelayMs, 200 * 2 ** attempt), spec.signal);
        continue;
      }
      throw new VitrineError({
        status: 0,
        code: 'network_error',
        detail: error instanceof Error ? error.message : 'The request failed before a response arrived.',
        cause: error,
      });
    }
    if (response.status === 429 && attempt < settings.maxRetries) {
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? 1000;
      if (wait <= settings.maxRetryDelayMs) {
        await response.body?.cancel().catch(() => undefined);
        await sleep(wait, spec.signal);
        continue;
      }
    }
    if (!response.ok) throw await errorFrom(response);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new VitrineError({
        status: response.status,
        code: 'unexpected_response',
        detail: 'The response body is not JSON.',
        requestId: response.headers.get('x-request-id'),
        cause: error,
      });
    }
  }
}

/** Joins a base URL (`http://host/v1`, with or without a trailing slash) and a path. */
export function join(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
