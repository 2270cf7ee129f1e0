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
});
