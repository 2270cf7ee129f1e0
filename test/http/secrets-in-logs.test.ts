import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';

/** Issue 13, defect 6: `apiKey[]=<key>` (and other shapes of a secret parameter) was logged as sent. */
describe('secrets in request logs', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['apiKey[]', 'apiKey%5B%5D', 'apiKey[0]', 'apikey[x]'])(
    'never logs the key sent as %s',
    async (name) => {
      const key = t.fixtures.keys.testing.key;
      const res = await t.apps.testing.inject(`/v1/offers/?${name}=${key}&q=lamp`);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toContain(key);
      expect(t.logs.join('')).not.toContain(key);
    },
  );

  // Issue 26: OAuth credentials sent in a query string (a client's mistake, or a probe).
  const secret = 'S3cr3t-value-that-must-never-be-logged';
  it.each([
    `/auth/token?grant_type=authorization_code&client_secret=${secret}`,
    `/auth/token?code=${secret}&code_verifier=${secret}x`,
    `/auth/authorize?response_type=code&client_id=key_x&authorization=Basic%20${secret}`,
    `/auth/revoke?token=${secret}&token_type_hint=access_token`,
    `/auth/connect?apiKey=${secret}&destination=https://app.example.com/callback`,
    `/auth/userinfo?access_token=${secret}`,
    `/auth/anything?whatever=${secret}`,
  ])('never logs a credential in %s, and keeps the parameter names', async (url) => {
    const res = await t.apps.testing.inject(url);
    expect(res.statusCode).toBeLessThan(500);
    const logs = t.logs.join('');
    expect(logs).not.toContain(secret);
    const name = url.slice(url.indexOf('?') + 1).split('=')[0] as string;
    expect(logs).toContain(`${name}=[REDACTED]`);
  });

  it.each(['client_secret', 'code', 'code_verifier', 'authorization', 'id_token', 'totp_code'])(
    'redacts %s outside the auth server too',
    async (name) => {
      const res = await t.apps.testing.inject(`/v1/offers/?q=lamp&${name}=${secret}`);
      expect(res.statusCode).toBeLessThan(500);
      expect(t.logs.join('')).not.toContain(secret);
    },
  );
});
