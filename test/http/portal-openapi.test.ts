import { expect, it } from 'vitest';
import { createTestContext } from '../support/context.js';
import { listenerPath } from '../support/openapi.js';

it('keeps the portal and console pages out of the OpenAPI document', async () => {
  const t = await createTestContext('sqlite');
  try {
    const doc = JSON.parse((await t.apps.production.inject({ url: '/openapi.json' })).body);
    const paths = Object.keys(doc.paths).map((p) => listenerPath(doc, p));
    expect(paths.filter((p) => p.startsWith('/portal') || p.startsWith('/console'))).toEqual([]);
    expect(paths).toContain('/v1/offers/');
  } finally {
    await t.close();
  }
});
