import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.js';

/**
 * Issue 25: the README runs as written. A real `vitrine serve --demo` is started; the banner's
 * key and addresses replace the README's placeholders; every `sh` block (but those marked
 * `<!-- readme-test: skip (why) -->`) runs in one bash session, as a reader pastes them into
 * one terminal. Each curl's status is recorded: a 4xx or 5xx fails the test unless the line
 * says it is expected (`# 401 api_key_missing`); any other failing command fails it too.
 */
const root = path.resolve(import.meta.dirname, '../..');
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

interface ShellBlock {
  code: string;
  skip: string | null;
}

function shellBlocks(markdown: string): ShellBlock[] {
  return [...markdown.matchAll(/(?:<!-- readme-test: skip \(([^)]*)\) -->\n)?```sh\n([\s\S]*?)```/g)].map(
    (m) => ({
      code: m[2] ?? '',
      skip: m[1] ?? null,
    }),
  );
}

/** The statuses the script's curl calls should answer, in order (null: any 2xx or 3xx). */
function expectedStatuses(script: string): (number | null)[] {
  const lines = script.replace(/\\\n/g, ' ').split('\n');
  return lines
    .filter(
      (line) => /(^|[\s($|])curl\s/.test(line.split(/\s#/)[0] ?? '') && !line.trimStart().startsWith('#'),
    )
    .map((line) => {
      const comment = /\s#\s*(\d{3})\b/.exec(line);
      return comment ? Number(comment[1]) : null;
    });
}

describe('README.md runs as written against a started server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-readme-'));
  let child: ChildProcessWithoutNullStreams;
  let banner = '';
  let ports: { production: number; testing: number };

  beforeAll(async () => {
    ports = { production: await freePort(), testing: await freePort() };
    child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), 'serve', '--demo'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        PORT: String(ports.production),
        TESTING_PORT: String(ports.testing),
      },
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        banner += String(chunk);
        if (banner.includes('offers/?q=') && banner.includes('end user')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${banner}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every shell block answers as the README says', async () => {
    const key = /X-Api-Key: (vk_test_\w+)/.exec(banner)?.[1] as string;
    const keyId = /key id \(OAuth client_id\) +(key_\w+)/.exec(banner)?.[1] as string;
    expect(key).toBeDefined();
    expect(keyId).toBeDefined();
    const production = `http://localhost:${ports.production}`;
    const testing = `http://localhost:${ports.testing}`;

    // The end user's tokens, as the example destination app shows them after a /connect login.
    const credentials = fs.readFileSync(path.join(dataDir, 'demo-credentials.txt'), 'utf8');
    const [, email, password] = /end user \(testing\) (\S+) (\S+)/.exec(credentials) ?? [];
    const connect = await fetch(
      `${testing}/auth/connect?${new URLSearchParams({ apiKey: key, destination: 'http://localhost:5173/callback' })}`,
    );
    const ticket = /name="ticket" value="([^"]+)"/.exec(await connect.text())?.[1] ?? '';
    const cookie = String(connect.headers.get('set-cookie')).split(';')[0] ?? '';
    const login = await fetch(`${testing}/auth/connect`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ ticket, email: email ?? '', password: password ?? '' }),
    });
    expect(login.status).toBe(303);
    const tokens = new URL(String(login.headers.get('location'))).searchParams;

    // The README shows the example SDK script as it is in the repository.
    const shown = /```js\n([\s\S]*?)```/.exec(README)?.[1];
    expect(shown).toBe(fs.readFileSync(path.join(root, 'examples/sdk-search.mjs'), 'utf8'));
    const blocks = shellBlocks(README);
    expect(blocks.filter((b) => b.skip === null).length).toBeGreaterThanOrEqual(4);
    const script = blocks
      .filter((b) => b.skip === null)
      .map((b) => b.code)
      .join('\n')
      .replaceAll('vk_test_…', key)
      .replaceAll('key_…', keyId)
      .replaceAll('http://localhost:8081', testing)
      .replaceAll('http://localhost:8080', production);
    const statusLog = path.join(dataDir, 'statuses.txt');
    const prelude = [
      'set -eo pipefail',
      // Every curl also writes its status to the log, and its body to stdout as before.
      `curl() { command curl -w '%{stderr}%{http_code}\\n' "$@" 2>>"$STATUS_LOG"; }`,
    ].join('\n');
    const run = spawnSync('bash', ['--norc', '--noprofile', '-c', `${prelude}\n${script}`], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: dataDir,
        DATA_DIR: dataDir,
        STATUS_LOG: statusLog,
        JWT: tokens.get('jwt') ?? '',
        REFRESH: tokens.get('refresh') ?? '',
      },
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(run.stderr, run.stdout.slice(-2000)).toBe('');
    expect(run.status).toBe(0);

    const got = fs.readFileSync(statusLog, 'utf8').trim().split('\n');
    const wanted = expectedStatuses(script);
    expect(got.length).toBe(wanted.length);
    const unexpected = got
      .map((status, i) => ({ status: Number(status), wanted: wanted[i], i }))
      .filter(({ status, wanted: w }) => (w === null ? !(status >= 200 && status < 400) : status !== w));
    expect(unexpected).toEqual([]);
    // The example SDK script printed offers, and the priced pages are in one currency.
    expect(run.stdout).toMatch(/offers match "road bik"/);
    expect(run.stdout).toMatch(/ EUR\n/);
  }, 600_000);
});
