import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TUNING } from '../search/columns/tuning.js';
import { createIndexSnapshots } from './index-snapshots.js';
import type { SnapshotMarks } from './snapshot-marks.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-snapshots-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('search index snapshots at start (issue 26)', () => {
  it('remove the temporary files of a writer that is gone, and keep a live writer’s', async () => {
    // A pid that ran and exited: its writes can never finish.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const gone = path.join(dir, `testing.snapshot.${dead}.m1.tmp`);
    const live = path.join(dir, `testing.snapshot.${process.ppid}.m2.tmp`);
    for (const file of [gone, live]) fs.writeFileSync(file, 'partial');
    const snapshots = createIndexSnapshots({
      dir,
      databaseId: async () => 'db',
      marks: {} as SnapshotMarks,
      logger: pino({ level: 'silent' }),
    });
    expect(await snapshots.load('testing', 0, DEFAULT_TUNING)).toBeNull();
    expect(fs.existsSync(gone)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
  });
});
