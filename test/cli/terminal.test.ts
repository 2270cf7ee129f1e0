import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createDeps } from '../../src/deps.js';
import { createLogger } from '../../src/http/logger.js';
import { systemClock } from '../../src/platform/clock.js';
import { VERSION } from '../../src/platform/version.js';

/**
 * The CLI at a real terminal (issue 15): a pseudo-terminal from Python's pty module, so the
 * process sees a TTY exactly as it does when a person types. Piped input is tested in cli.test.ts.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-tty-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const CLI = [process.execPath, '--import', 'tsx', path.join(root, 'src/main.ts')];

/**
 * Runs the CLI under a pty: waits for `prompt` on the terminal, types `typed`, and returns
 * everything the terminal showed and the exit status.
 */
const DRIVER = `
import os, pty, sys, json, time
args, prompt, typed = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(args[0], args)
seen = b''
deadline = time.time() + 60
while prompt.encode() not in seen and time.time() < deadline:
    try:
        seen += os.read(fd, 1024)
    except OSError:
        break
os.write(fd, typed.encode())
while True:
    try:
        chunk = os.read(fd, 1024)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(json.dumps({'screen': seen.decode('utf8', 'replace'), 'status': os.waitstatus_to_exitcode(status)}))
`;

function atTerminal(args: string[], prompt: string, typed: string): { screen: string; status: number } {
  const result = spawnSync('python3', ['-c', DRIVER, JSON.stringify([[...CLI, ...args], prompt, typed])], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, TERM: 'dumb' },
    encoding: 'utf8',
    timeout: 90_000,
  });
  if (result.status !== 0) throw new Error(`pty driver failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe('vitrine at a terminal', { timeout: 120_000 }, () => {
  it('asks for a password without showing it, and Enter ends it', async () => {
    const secret = 'tty-secret-Passw0rd';
    // A typo corrected with Backspace, then Enter: what is stored is what was meant.
    const { screen, status } = atTerminal(
      ['users', 'add', '--env', 'testing', '--email', 'tty@example.com', '--password-stdin'],
      'Enter to finish',
      `${secret}x\u007f\r`,
    );
    expect(status, screen).toBe(0);
    expect(screen).toContain('typing is not shown');
    expect(screen).not.toContain(secret);
    expect(screen).not.toContain('*');
    const deps = createDeps(loadConfig({ DATA_DIR: dataDir }), {
      clock: systemClock,
      logger: createLogger({ level: 'silent' }),
    });
    try {
      expect(await deps.users.authenticate('testing', 'tty@example.com', secret)).not.toBeNull();
    } finally {
      await deps.close();
    }
  });

  it('Ctrl-C at the prompt cancels without creating anything', () => {
    const { screen, status } = atTerminal(
      ['users', 'add', '--env', 'testing', '--email', 'cancel@example.com', '--password-stdin'],
      'Enter to finish',
      'half\u0003',
    );
    expect(status).not.toBe(0);
    expect(screen).toContain('cancelled');
  });

  it('prints the version', () => {
    const result = spawnSync(CLI[0] as string, [...CLI.slice(1), '--version'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(VERSION);
  });
});
