import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { vitrineArgv } from './processes.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The `vitrine` command as a subprocess on a fresh DATA_DIR of its own (removed after the file):
 * `run` answers status and output, `json` adds `--json`, expects success and parses stdout.
 */
export function vitrineCli(prefix: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vitrine-${prefix}-`));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const run = (args: string[], input = '') => {
    const result = spawnSync(process.execPath, vitrineArgv(...args), {
      cwd: root,
      input,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const json = (args: string[], input = '') => {
    const result = run([...args, '--json'], input);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout);
  };
  return { run, json, dataDir };
}
