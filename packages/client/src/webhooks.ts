/**
 * Checking the webhooks Vitrine sends (Standard Webhooks), with WebCrypto only: no dependency,
 * the same code in Node.js ≥ 20, Deno, Bun, workers and browsers.
 */

/** An event as Vitrine sends it. */
export interface WebhookEvent<T = Record<string, unknown>> {
  /** `saved_search.matched`, `application.approved`, `application.rejected`, `key.revoked`, `key.rolled`, `key.expiring`, `import.completed` or `webhook.test`. */
  type: string;
  /** When the event happened, ISO 8601. */
  timestamp: string;
  data: T;
}

/** The request is not a genuine, fresh Vitrine webhook: answer it with 400 and do nothing else. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const bag = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = found === undefined ? undefined : bag[found];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Compares in time independent of where the first difference is. */
function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/**
 * Verifies a webhook from Vitrine and returns its event. Pass the body exactly as received
 * (the raw text, before any JSON parsing), the request's headers and the endpoint's signing
 * secret (`whsec_…`, shown when the endpoint was added or its secret rotated).
 *
 * Checks, as the Standard Webhooks specification says: `webhook-signature` holds a `v1`
 * signature (HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`) made with the secret
 * (during a secret rotation Vitrine sends two; one matching is enough), and `webhook-timestamp`
 * is within `toleranceSeconds` (default 300) of now, so a captured request cannot be replayed
 * later. Deliveries are at least once: keep the `webhook-id` of what you processed and ignore
 * a repeat.
 *
 * @throws WebhookVerificationError when any check fails.
 *
 * @example
 * ```ts
 * import { verifyWebhook } from '@vitrine/client';
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.VITRINE_WEBHOOK_SECRET!);
 * if (event.type === 'saved_search.matched') notify(event.data);
 * ```
 */
export async function verifyWebhook<T = Record<string, unknown>>(
  body: string,
  headers: HeaderBag,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): Promise<WebhookEvent<T>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook headers');
  const seconds = Number(timestamp);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('webhook timestamp too old or too new');
  }
  let keyBytes: Uint8Array<ArrayBuffer>;
  try {
    keyBytes = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError('the secret is not a whsec_ secret');
  }
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const signed = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)),
  );
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',');
    if (version !== 'v1' || !value) continue;
    let given: Uint8Array;
    try {
      given = fromBase64(value);
    } catch {
      continue;
    }
    if (equal(given, signed)) {
      try {
        return JSON.parse(body) as WebhookEvent<T>;
      } catch {
        throw new WebhookVerificationError('the body is not JSON');
      }
    }
  }
  throw new WebhookVerificationError('no matching signature');
}
