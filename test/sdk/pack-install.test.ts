import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { freePort } from '../support/processes.js';

/**
 * Issue 25: `@vitrine/client` installs anywhere. `npm pack` in packages/client gives a tarball;
 * an empty folder outside the repository installs it without a registry (the package has no
 * dependencies), runs the README's example script against a real server, and type-checks a
 * TypeScript file against the declarations the tarball carries.
 */
const root = path.resolve(import.meta.dirname, '../..');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
    timeout: 180_000,
  });

describe('the SDK tarball in an empty project', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-sdk-anywhere-'));
  let t: TestContext;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    t = await createTestContext(
      'sqlite',
      { TESTING_PUBLIC_ORIGIN: `http://localhost:${port}` },
      { environments: ['testing'] },
    );
    await t.apps.testing.listen({ port, host: '127.0.0.1' });
    base = `http://localhost:${port}/v1`;
    await t.deps.offers.upsertMany('testing', [...generateOffers({ count: 200, seed: 25 })]);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('packs, installs offline, runs the README example and type-checks', async () => {
    const packed = JSON.parse(
      npm(['pack', '--json', '--pack-destination', folder], path.join(root, 'packages/client')),
    );
    const tarball = path.join(folder, packed[0].filename as string);
    const files = (packed[0].files as { path: string }[]).map((f) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files.some((f) => f.endsWith('.test.ts') || f.endsWith('.test.js'))).toBe(false);

    const project = path.join(folder, 'app');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    npm(['install', '--offline', '--no-audit', '--no-fund', tarball], project);
    expect(fs.realpathSync(path.join(project, 'node_modules/@vitrine/client'))).not.toContain(root);

    fs.copyFileSync(path.join(root, 'examples/sdk-search.mjs'), path.join(project, 'search.mjs'));
    // Asynchronously: the server answering it runs in this process.
    const { stdout: out } = await promisify(execFile)(process.execPath, ['search.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH, KEY: t.fixtures.keys.testing.key, BASE: base },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(out).toMatch(/offers match "road bik"/);

    // Types included: a TypeScript file using the package compiles against the tarball's .d.ts.
    fs.writeFileSync(
      path.join(project, 'check.ts'),
      [
        "import { Vitrine, VitrineError, type SearchResponse } from '@vitrine/client';",
        "const vitrine = new Vitrine({ baseUrl: 'http://localhost:8081/v1', apiKey: 'vk_test_x' });",
        "const page: Promise<SearchResponse> = vitrine.offers.search({ q: 'sofa', limit: 2 });",
        'export const check = [page, VitrineError];',
        '// @ts-expect-error: limit is a number',
        "vitrine.offers.search({ limit: 'two' });",
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ['check.ts'],
      }),
    );
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', project], {
      encoding: 'utf8',
    });
  }, 300_000);
});
