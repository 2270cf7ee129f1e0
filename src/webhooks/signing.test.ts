import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signatureHeaders, signingKey } from './signing.js';

describe('webhook signing', () => {
  it('signs as the standardwebhooks package does, and its verify accepts it', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }), (body, at) => {
        const secret = generateWebhookSecret();
        const headers = signatureHeaders([signingKey(secret)], 'msg_test', at, body);
        expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_test', new Date(at), body));
      }),
      { numRuns: 200 },
    );
    const secret = generateWebhookSecret();
    const now = Date.now();
    const body = JSON.stringify({ type: 'webhook.test', data: { message: 'héllo' } });
    const headers = signatureHeaders(
      [signingKey(generateWebhookSecret()), signingKey(secret)],
      'msg_1',
      now,
      body,
    );
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'webhook.test' });
  });
});
