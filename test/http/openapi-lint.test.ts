import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';

/**
 * The served document passes Redocly's linter (the engine of `@redocly/cli lint`) with the
 * repository's redocly.yaml: zero errors (issue 15: codegen-grade OpenAPI).
 */
describe('OpenAPI lint', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  for (const environment of ['production', 'testing'] as const) {
    it(`${environment}: no errors under redocly.yaml`, async () => {
      const source = (await t.apps[environment].inject('/openapi.json')).body;
      const config = await createConfig(readFileSync(new URL('../../redocly.yaml', import.meta.url), 'utf8'));
      const problems = await lintFromString({ source, absoluteRef: `/${environment}/openapi.json`, config });
      const errors = problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
      expect(errors).toEqual([]);
    });
  }
});
