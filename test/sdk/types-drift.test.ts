import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSdkTypes, SDK_TYPES_FILE, servedOpenApi } from '../../scripts/sdk-types.js';

describe('SDK types', () => {
  it('match the OpenAPI document the server serves (run `npm run sdk:types` when this fails)', async () => {
    const committed = readFileSync(SDK_TYPES_FILE, 'utf8');
    expect(committed).toBe(await renderSdkTypes(await servedOpenApi()));
  });
});
