import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** `vitrine attributes set|list|remove --env ENV` (issue 23) as processes, audited. */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-attributes-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function vitrine(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
const json = (args: string[]) => {
  const result = vitrine([...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
};

describe('attribute commands', { timeout: 180_000 }, () => {
  it('declares, lists, changes and removes attributes per environment, each change audited', () => {
    expect(
      json(['attributes', 'set', 'rooms', '--env', 'testing', '--type', 'number', '--facet', '--sort']),
    ).toEqual({
      environment: 'testing',
      attribute: { name: 'rooms', type: 'number', facet: true, sort: true, searchable: false },
    });
    json(['attributes', 'set', 'brand', '--env', 'testing', '--type', 'string', '--facet']);
    json(['attributes', 'set', 'rooms', '--env', 'testing', '--type', 'number']);
    expect(json(['attributes', 'list', '--env', 'testing'])).toEqual({
      environment: 'testing',
      version: 3,
      attributes: [
        { name: 'brand', type: 'string', facet: true, sort: false, searchable: false },
        { name: 'rooms', type: 'number', facet: false, sort: false, searchable: false },
      ],
    });
    expect(json(['attributes', 'list', '--env', 'production']).attributes).toEqual([]);
    expect(vitrine(['attributes', 'list', '--env', 'testing']).stdout).toMatch(
      /^NAME\s+TYPE\s+FACET\s+SORT\n/,
    );

    const refused: Array<[string[], string]> = [
      [['attributes', 'set', '9lives', '--env', 'testing', '--type', 'number'], 'attribute name'],
      [
        ['attributes', 'set', 'brand', '--env', 'testing', '--type', 'string', '--sort'],
        'number and boolean',
      ],
      [['attributes', 'set', 'size', '--env', 'testing', '--type', 'colour'], 'must be one of'],
      [['attributes', 'remove', 'colour', '--env', 'testing'], 'no attribute colour'],
    ];
    for (const [args, message] of refused) {
      const result = vitrine(args);
      expect(result.status, args.join(' ')).not.toBe(0);
      expect(result.stderr).toContain(message);
    }

    expect(json(['attributes', 'remove', 'brand', '--env', 'testing'])).toEqual({
      environment: 'testing',
      removed: 'brand',
    });
    expect(
      json(['attributes', 'list', '--env', 'testing']).attributes.map((a: { name: string }) => a.name),
    ).toEqual(['rooms']);
    const entries = json(['audit', 'list']).entries.filter((e: { action: string }) =>
      e.action.startsWith('search.'),
    );
    expect(
      entries.map((e: { action: string; targetId: string }) => `${e.action} ${e.targetId}`).reverse(),
    ).toEqual([
      'search.attribute_set testing:rooms',
      'search.attribute_set testing:brand',
      'search.attribute_set testing:rooms',
      'search.attribute_removed testing:brand',
    ]);
  });
});
