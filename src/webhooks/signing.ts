import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com/): the secret is `whsec_` + base64 of 24
 * random bytes; a message is signed as `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the
 * secret's bytes as the key. Node's HMAC signs (the `standardwebhooks` package hashes in
 * JavaScript, several times slower); signing.test.ts holds it to that package's `sign`, and the
 * webhook tests verify with its `verify`.
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** A secret's key bytes (decoded once per endpoint and dispatch pass, not per attempt). */
export function signingKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  if (key.length === 0) throw new Error('empty webhook secret');
  return key;
}

/** The signing headers of one attempt; with several keys (a rotation's overlap) one signature each. */
export function signatureHeaders(
  keys: readonly Buffer[],
  messageId: string,
  atMs: number,
  body: string,
): Record<string, string> {
  const timestamp = String(Math.floor(atMs / 1000));
  const signed = `${messageId}.${timestamp}.${body}`;
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': keys
      .map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`)
      .join(' '),
  };
}
