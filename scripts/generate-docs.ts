import { writeFileSync } from 'node:fs';
import { renderConfigDocs } from '../src/config/config-docs.js';
import { renderErrorDocs } from '../src/http/error-docs.js';

// Regenerates the docs derived from code tables; test/docs.test.ts fails when they drift.
writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorDocs());
writeFileSync(new URL('../docs/config.md', import.meta.url), renderConfigDocs());
process.stdout.write('wrote docs/errors.md and docs/config.md\n');
