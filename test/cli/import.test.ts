import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { toOfferRecord } from '../../src/offers/offer-record.js';
import { offerIdFor } from '../../src/offers/rows.js';
import { generateOffers } from '../../src/offers/seed.js';
import { vitrineArgv } from '../support/processes.js';

/** `vitrine import` as users run it: a process on a fresh DATA_DIR, its output and exit code. */
const root = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-import-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const args = (dataDir: string, rest: string[]) => ({
  argv: vitrineArgv(...rest),
  options: { cwd: root, env: { PATH: process.env.PATH, DATA_DIR: dataDir } },
});

function vitrine(dataDir: string, rest: string[]) {
  const { argv, options } = args(dataDir, rest);
  const r = spawnSync(process.execPath, argv, { ...options, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(name: string, text: string): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
}

function query<T>(dataDir: string, sql: string): T[] {
  const db = new BetterSqlite3(path.join(dataDir, 'vitrine.db'), { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const records = (count: number, seed: number) =>
  [...generateOffers({ count, seed })].map((o) => JSON.stringify(toOfferRecord(o)));

describe('vitrine import', () => {
  it('imports the valid NDJSON rows and lists the invalid ones with their line numbers', () => {
    const dataDir = fs.mkdtempSync(path.join(work, 'ndjson-'));
    const good = records(3, 1);
    const bad = JSON.stringify({
      ...JSON.parse(good[0] ?? '{}'),
      externalId: 'bad-price',
      price: { amount: '1,5', currency: 'EUR' },
    });
    const lines = [good[0], '{not json', '', good[1], bad, '[1]', good[2]];
    const file = write('offers.ndjson', `${lines.join('\n')}\n`);
    const result = vitrine(dataDir, ['import', '--env', 'testing', file, '--json']);
    expect(result.status).toBe(1);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      format: 'ndjson',
      rows: 6,
      valid: 3,
      inserted: 3,
      updated: 0,
      skipped: 3,
    });
    expect(summary.invalid).toEqual([
      { line: 2, reason: 'is not valid JSON' },
      { line: 5, reason: expect.stringContaining('price.amount must match pattern') },
      { line: 6, reason: 'row must be object' },
    ]);
    expect(result.stderr).toContain('line 2: is not valid JSON');
    expect(result.stderr).toContain('line 5: price.amount');
    expect(result.stderr).toMatch(/import: 6 rows \(100%\), [\d,]+ rows\/s, done in/);
    const ids = query<{ id: string }>(
      dataDir,
      "SELECT id FROM offers WHERE environment = 'testing' ORDER BY id",
    );
    const expected = [...generateOffers({ count: 3, seed: 1 })].map((o) =>
      offerIdFor('testing', o.externalId),
    );
    expect(ids.map((r) => r.id)).toEqual(expected.sort());

    const again = JSON.parse(vitrine(dataDir, ['import', '--env', 'testing', file, '--json']).stdout);
    expect(again).toMatchObject({ inserted: 0, updated: 3, skipped: 3 });
  });

  it('imports CSV with quoted fields, tags and attributes, and reports bad rows', () => {
    const dataDir = fs.mkdtempSync(path.join(work, 'csv-'));
    const file = write(
      'offers.csv',
      [
        'externalId,title,description,category,tags,city,country,lat,lon,price,currency,publisherId,publisherName,publishedAt,attributes.storageGb',
        'c1,"Oak desk, solid","A ""big"" desk',
        'with drawers",furniture,like-new|eco,Lyon,fr,45.76,4.83,120.50,eur,pub_1,Shop,2026-10-01T10:00:00Z,',
        'c2,Phone,,electronics,,Paris,FR,north,2.35,12,EUR,pub_1,Shop,2026-10-02T10:00:00Z,128',
        'c3,Phone,,electronics,,Paris,FR,48.85,2.35,12,EUR,pub_1,Shop,2026-10-02T10:00:00Z,128',
        'c4,Too,few',
      ].join('\r\n'),
    );
    const result = vitrine(dataDir, ['import', '--env', 'production', file, '--json']);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      format: 'csv',
      inserted: 2,
      skipped: 2,
      invalid: [
        { line: 4, reason: 'location.lat must be number' },
        { line: 6, reason: 'has 3 fields, the header has 15' },
      ],
    });
    const rows = query<Record<string, unknown>>(
      dataDir,
      'SELECT external_id, title, description, tags, country, currency, attributes FROM offers ORDER BY external_id',
    );
    expect(rows).toEqual([
      {
        external_id: 'c1',
        title: 'Oak desk, solid',
        description: 'A "big" desk\r\nwith drawers',
        tags: '["like-new","eco"]',
        country: 'FR',
        currency: 'EUR',
        attributes: '{}',
      },
      {
        external_id: 'c3',
        title: 'Phone',
        description: '',
        tags: '[]',
        country: 'FR',
        currency: 'EUR',
        attributes: '{"storageGb":128}',
      },
    ]);
  });

  it('validates only with --dry-run, and refuses unusable files with exit code 2', () => {
    const dataDir = fs.mkdtempSync(path.join(work, 'dry-'));
    const file = write('dry.ndjson', `${records(5, 2).join('\n')}\n`);
    const dry = vitrine(dataDir, ['import', '--env', 'testing', '--dry-run', file, '--json']);
    expect(dry.status).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      dryRun: true,
      valid: 5,
      inserted: 0,
      updated: 0,
      skipped: 0,
    });
    expect(query(dataDir, 'SELECT id FROM offers')).toEqual([]);

    expect(vitrine(dataDir, ['import', '--env', 'testing', path.join(work, 'missing.csv')]).status).toBe(2);
    expect(vitrine(dataDir, ['import', '--env', 'testing', write('offers.txt', '')]).status).toBe(2);
    const header = vitrine(dataDir, [
      'import',
      '--env',
      'testing',
      write('bad.csv', 'externalId,colour\n1,red\n'),
    ]);
    expect(header.status).toBe(2);
    expect(header.stderr).toContain('unknown CSV column(s): colour');
  }, 90_000); // four CLI processes, each starting tsx: slow on a busy machine

  it('leaves only whole offers when killed, and a re-run reaches the uninterrupted state', async () => {
    const file = write('big.ndjson', `${records(20_000, 3).join('\n')}\n`);
    const interrupted = fs.mkdtempSync(path.join(work, 'killed-'));
    const reference = fs.mkdtempSync(path.join(work, 'reference-'));
    vitrine(interrupted, ['migrate']);

    const { argv, options } = args(interrupted, ['import', '--env', 'testing', file]);
    const child = spawn(process.execPath, argv, { ...options, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const count = () => query<{ n: number }>(interrupted, 'SELECT count(*) AS n FROM offers')[0]?.n ?? 0;
    while (count() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGKILL');
    await exited;
    const partial = count();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(20_000);
    // Every offer written carries the change number of its batch, and the counter the search
    // indexes follow holds the last one: nothing half-written.
    const [consistency] = query<{ unstamped: number; last: number; counter: number }>(
      interrupted,
      `SELECT (SELECT count(*) FROM offers WHERE change_seq = 0) AS unstamped,
              (SELECT max(change_seq) FROM offers) AS last,
              (SELECT value FROM change_counters WHERE name = 'offers:testing') AS counter`,
    );
    expect(consistency?.unstamped).toBe(0);
    expect(consistency?.last).toBeGreaterThan(0);
    expect(consistency?.counter).toBe(consistency?.last);

    expect(vitrine(interrupted, ['import', '--env', 'testing', file]).status).toBe(0);
    expect(vitrine(reference, ['import', '--env', 'testing', file]).status).toBe(0);
    const state = (dataDir: string) => ({
      // updated_at is the time of the write, the one column allowed to differ.
      offers: query(
        dataDir,
        'SELECT id, external_id, title, description, category, tags, city, lat, lon, price_value, status, published_at, expires_at FROM offers ORDER BY id',
      ),
    });
    const final = state(interrupted);
    expect(final.offers).toHaveLength(20_000);
    expect(final).toEqual(state(reference));
  }, 180_000);
});
