import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks (https://www.standardwebhooks.com/): the secret is `whsec_` + base64 of 24
 * random bytes; a message is signed as `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, by the
 * `standardwebhooks` package itself, so the signature is what its `verify` expects.
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The signing headers of one attempt; with several secrets (a rotation's overlap) one signature each. */
export function signatureHeaders(
  secrets: readonly string[],
  messageId: string,
  atMs: number,
  body: string,
): Record<string, string> {
  const timestamp = new Date(atMs);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(atMs / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(messageId, timestamp, body)).join(' '),
  };
}
