import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, expect } from 'vitest';
import { runVitrine } from '../../src/cli/program.js';

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one `vitrine` command in this process (issue 26: a process per command cost 1–2 s each,
 * most of the CLI tests' time): the same program as `bin/vitrine.js` runs, with `input` as its
 * standard input (piped, not a terminal), `env` as its whole environment, and its stdout, stderr
 * and exit code collected. What only a process shows (a terminal's prompt, signals, the real
 * exit, the built `bin`) is tested with processes: test/cli/terminal.test.ts, serve.test.ts,
 * import.test.ts, and the process cases of cli.test.ts.
 */
export async function runCommand(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const status = await runVitrine(['node', 'vitrine', ...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    stdin: Object.assign(Readable.from([Buffer.from(input)]), { isTTY: false }),
    env,
  });
  return { status, stdout, stderr };
}

/**
 * The `vitrine` command on a fresh DATA_DIR of its own (removed after the file): `run` answers
 * status and output, `json` adds `--json`, expects success and parses stdout.
 */
export function vitrineCli(prefix: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vitrine-${prefix}-`));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const run = (args: string[], input = '') =>
    runCommand(args, { PATH: process.env.PATH, DATA_DIR: dataDir, ...env }, input);
  const json = async (args: string[], input = '') => {
    const result = await run([...args, '--json'], input);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout);
  };
  return { run, json, dataDir };
}
