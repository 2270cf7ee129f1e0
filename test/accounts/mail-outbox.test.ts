import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { PageAgent } from '../support/portal.js';

/**
 * Issue 27: without `SMTP_URL`, mail is written as `.eml` files under `$DATA_DIR/outbox/`, one
 * log line names the file, and no log line carries the link's token.
 */
describe('mail without SMTP_URL', () => {
  let t: TestContext;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-outbox-'));

  beforeAll(async () => {
    t = await createTestContext('sqlite', { DATA_DIR: dataDir, MAIL_FROM: 'Shop <shop@example.com>' });
    await t.deps.operators.add({ email: 'eve@example.com', password: 'eve-console-pw-1' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes an .eml file with text and HTML parts, and logs where', async () => {
    const agent = new PageAgent(t.apps.production, '10.8.0.1');
    await agent.get('/console/forgot');
    expect((await agent.post('/console/forgot', { email: 'eve@example.com' })).statusCode).toBe(200);
    await t.deps.mailer.drain();
    expect(await t.deps.mailer.pending()).toBe(0);
    const files = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^mail_\w+\.eml$/);
    const eml = fs.readFileSync(path.join(dataDir, 'outbox', files[0] as string), 'utf8');
    expect(eml).toContain('From: Shop <shop@example.com>');
    expect(eml).toContain('To: eve@example.com');
    expect(eml).toContain('Content-Type: text/plain');
    expect(eml).toContain('Content-Type: text/html');
    const token = /token=([\w-]{43})/.exec(eml.replace(/=\r?\n/g, '').replaceAll('=3D', '='))?.[1];
    expect(token).toBeDefined();
    // The token in the file is the one the link needs: it opens the reset form.
    expect((await agent.get(`/console/reset?token=${token}`)).statusCode).toBe(200);
    const logs = t.logs.join('\n');
    expect(logs).toContain(path.join(dataDir, 'outbox', files[0] as string));
    expect(logs).not.toContain(token);
  });
});
