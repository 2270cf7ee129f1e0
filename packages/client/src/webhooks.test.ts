import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './webhooks.js';

/** The SDK's WebCrypto check against the reference implementation, `standardwebhooks`. */
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const other = 'whsec_dGhpcyBpcyBhbm90aGVyIHNlY3JldCBvayE=';
const body = JSON.stringify({ type: 'webhook.test', timestamp: '2026-11-27T00:00:00.000Z', data: { a: 1 } });
const at = new Date(Date.UTC(2026, 10, 27));

function signed(secrets: string[], messageId = 'msg_1', payload = body) {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(messageId, at, payload)).join(' '),
  };
}

describe('verifyWebhook', () => {
  const now = at.getTime() + 10_000;

  it('accepts what standardwebhooks signs, from a header record or a Headers object', async () => {
    expect(await verifyWebhook(body, signed([secret]), secret, { now })).toMatchObject({ data: { a: 1 } });
    expect(await verifyWebhook(body, new Headers(signed([secret])), secret, { now })).toMatchObject({
      type: 'webhook.test',
    });
  });

  it('accepts either signature during a rotation', async () => {
    const both = signed([other, secret]);
    expect(await verifyWebhook(body, both, secret, { now })).toBeTruthy();
    expect(await verifyWebhook(body, both, other, { now })).toBeTruthy();
  });

  it('refuses a wrong secret, a changed body, a changed id, an old timestamp, missing headers', async () => {
    const headers = signed([secret]);
    const refused = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(WebhookVerificationError);
    await refused(verifyWebhook(body, headers, other, { now }));
    await refused(verifyWebhook(`${body} `, headers, secret, { now }));
    await refused(verifyWebhook(body, { ...headers, 'webhook-id': 'msg_2' }, secret, { now }));
    await refused(verifyWebhook(body, headers, secret, { now: at.getTime() + 301_000 }));
    await refused(verifyWebhook(body, { 'webhook-id': 'msg_1' }, secret, { now }));
  });

  it('agrees with standardwebhooks on what it refuses', async () => {
    const headers = signed([other]);
    expect(() => new Webhook(secret).verify(body, headers)).toThrow();
    await expect(verifyWebhook(body, headers, secret)).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});
