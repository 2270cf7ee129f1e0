import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import { useBuiltWorkerModules } from '../../src/platform/module-worker.js';

/**
 * Issue 26: in every test file, worker threads (SQLite reads, the start-up read, the alerts'
 * matching) run the run's transpiled build of src/ (test/support/cli-build.ts) rather than start
 * through tsx. Without a build (VITRINE_TEST_BUILD=0, or it failed) they start through tsx.
 */
const entry = inject('vitrineEntry');
const src = pathToFileURL(`${path.resolve(import.meta.dirname, '../../src')}/`);
useBuiltWorkerModules(src, entry ? pathToFileURL(`${path.dirname(entry)}/`) : null);
