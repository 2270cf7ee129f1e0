import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.js';

/**
 * Issue #2, done-when: `npm start` on a fresh data directory serves both environments and the
 * curl line it prints returns offers. Runs the real process (what `npm start` runs) on free
 * ports, reads its banner, and performs the printed request.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-serve-'));

function start(
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcessWithoutNullStreams; banner: Promise<string> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'src/main.ts'), 'serve', ...args],
    {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    },
  );
  let out = '';
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes('API reference') && (!args.includes('--demo') || out.includes('offers/?q=')))
        resolve(out);
    });
    child.stderr.on('data', (chunk) => {
      out += String(chunk);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before the banner:\n${out}`)));
  });
  return { child, banner };
}

function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal as unknown as number)));
    child.kill('SIGTERM');
  });
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('vitrine serve --demo (npm start)', () => {
  it('serves both environments, and the printed curl returns offers; SIGTERM exits 0', async () => {
    const [port, testingPort] = [await freePort(), await freePort()];
    const { child, banner } = start(['--demo'], { PORT: String(port), TESTING_PORT: String(testingPort) });
    try {
      const text = await banner;
      expect(text).toContain(`base_url http://localhost:${port}/v1`);
      expect(text).toContain(`base_url http://localhost:${testingPort}/v1`);
      expect(text).toContain(`auth_url http://localhost:${testingPort}/auth`);
      const curl = /curl -s -H 'X-Api-Key: (vk_test_\w+)' '([^']+)'/.exec(text);
      expect(curl).not.toBeNull();
      const [, key, url] = curl as RegExpExecArray;
      const res = await fetch(url as string, { headers: { 'x-api-key': key as string } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: unknown[]; total: { value: number } };
      expect(body.data.length).toBeGreaterThan(0);
      const prod = await fetch(`http://localhost:${port}/v1/offers/`, {
        headers: { 'x-api-key': key as string },
      });
      expect(prod.status).toBe(403);
      // Issue 5: the portal and console on production, and a first operator who can sign in.
      expect(text).toMatch(new RegExp(`Developer portal +http://localhost:${port}/portal/`));
      // Issue 25: the testing reference (where the demo key works), the key id, PKCE first.
      expect(text).toMatch(new RegExp(`API reference \\(testing\\) +http://localhost:${testingPort}/docs`));
      expect(text).toMatch(/key id \(OAuth client_id\) +key_\w+/);
      expect(text.indexOf('destination-app-pkce.mjs')).toBeLessThan(text.indexOf('/auth/connect?'));
      // Issue 13: stdout is not a terminal here, so it is the log stream: no password in it.
      expect(text).toMatch(
        /Console operator \S+, password \(not a terminal: written to \S+demo-credentials\.txt/,
      );
      const credentialsFile = path.join(dataDir, 'demo-credentials.txt');
      expect(fs.statSync(credentialsFile).mode & 0o777).toBe(0o600);
      const credentials = fs.readFileSync(credentialsFile, 'utf8');
      const operator = /console operator (\S+) (\w+)/.exec(credentials);
      expect(operator).not.toBeNull();
      expect(text).not.toContain(operator?.[2]);
      expect(text).not.toContain(/end user \(testing\) \S+ (\w+)/.exec(credentials)?.[1]);
      const signin = await fetch(`http://localhost:${port}/console/signin`);
      const cookie = String(signin.headers.get('set-cookie')).split(';')[0] as string;
      const csrf = /name="csrf" value="([^"]+)"/.exec(await signin.text())?.[1] ?? '';
      const signedIn = await fetch(`http://localhost:${port}/console/signin`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          csrf,
          email: operator?.[1] ?? '',
          password: operator?.[2] ?? '',
        }).toString(),
      });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('location')).toBe('/console/');
      expect(await stop(child)).toBe(0);

      // Second start: no new key, no re-seeding, and a hint how to get another key.
      const again = start(['--demo'], { PORT: String(port), TESTING_PORT: String(testingPort) });
      const second = await again.banner;
      expect(second).not.toMatch(/vk_test_\w{32}_/);
      expect(second).toContain('keys issue --project prj_');
      expect(second).not.toContain('Seeded');
      expect(second).not.toContain('Console operator');
      expect(await stop(again.child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('serves one environment with --env', async () => {
    const [port, testingPort] = [await freePort(), await freePort()];
    const { child, banner } = start(['--env', 'testing'], {
      PORT: String(port),
      TESTING_PORT: String(testingPort),
    });
    try {
      const text = await banner;
      expect(text).toContain('testing');
      expect(text).not.toContain(`localhost:${port}/v1`);
      expect((await fetch(`http://localhost:${testingPort}/healthz`)).status).toBe(200);
      await expect(fetch(`http://localhost:${port}/healthz`)).rejects.toThrow();
      expect(await stop(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
