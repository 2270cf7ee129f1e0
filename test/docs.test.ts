import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_SPEC } from '../src/config/config.js';
import { renderConfigDocs } from '../src/config/config-docs.js';
import { renderErrorDocs } from '../src/http/error-docs.js';
import { ERRORS, PAGE_ERRORS } from '../src/http/errors.js';
import { OAUTH_ERRORS } from '../src/http/oauth-errors.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('generated docs', () => {
  it('docs/errors.md matches the error table (run npm run docs:generate)', () => {
    expect(read('docs/errors.md')).toBe(renderErrorDocs());
    for (const code of Object.keys(ERRORS)) expect(read('docs/errors.md')).toContain(`## ${code}`);
    for (const code of Object.keys(PAGE_ERRORS))
      expect(read('docs/errors.md')).toContain(`id="page-${code}"`);
    for (const code of Object.keys(OAUTH_ERRORS))
      expect(read('docs/errors.md')).toContain(`id="oauth-${code}"`);
  });

  it('docs/config.md matches the config table (run npm run docs:generate)', () => {
    expect(read('docs/config.md')).toBe(renderConfigDocs());
    for (const spec of Object.values(CONFIG_SPEC))
      expect(read('docs/config.md')).toContain(`\`${spec.env}\``);
  });

  it('the README configuration table names every variable', () => {
    const readme = read('README.md');
    for (const spec of Object.values(CONFIG_SPEC)) expect(readme).toContain(`\`${spec.env}\``);
  });
});
