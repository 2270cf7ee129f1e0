import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM, openLogin, submitLogin } from '../support/auth.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { PageAgent } from '../support/portal.js';

/** Issue 13, defect 6: `apiKey[]=<key>` (and other shapes of a secret parameter) was logged as sent. */
describe('secrets in request logs', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['apiKey[]', 'apiKey%5B%5D', 'apiKey[0]', 'apikey[x]'])(
    'never logs the key sent as %s',
    async (name) => {
      const key = t.fixtures.keys.testing.key;
      const res = await t.apps.testing.inject(`/v1/offers/?${name}=${key}&q=lamp`);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toContain(key);
      expect(t.logs.join('')).not.toContain(key);
    },
  );

  // Issue 26: OAuth credentials sent in a query string (a client's mistake, or a probe).
  const secret = 'S3cr3t-value-that-must-never-be-logged';
  it.each([
    `/auth/token?grant_type=authorization_code&client_secret=${secret}`,
    `/auth/token?code=${secret}&code_verifier=${secret}x`,
    `/auth/authorize?response_type=code&client_id=key_x&authorization=Basic%20${secret}`,
    `/auth/revoke?token=${secret}&token_type_hint=access_token`,
    `/auth/connect?apiKey=${secret}&destination=https://app.example.com/callback`,
    `/auth/userinfo?access_token=${secret}`,
    `/auth/anything?whatever=${secret}`,
  ])('never logs a credential in %s, and keeps the parameter names', async (url) => {
    const res = await t.apps.testing.inject(url);
    expect(res.statusCode).toBeLessThan(500);
    const logs = t.logs.join('');
    expect(logs).not.toContain(secret);
    const name = url.slice(url.indexOf('?') + 1).split('=')[0] as string;
    expect(logs).toContain(`${name}=[REDACTED]`);
  });

  it.each(['client_secret', 'code', 'code_verifier', 'authorization', 'id_token', 'totp_code'])(
    'redacts %s outside the auth server too',
    async (name) => {
      const res = await t.apps.testing.inject(`/v1/offers/?q=lamp&${name}=${secret}`);
      expect(res.statusCode).toBeLessThan(500);
      expect(t.logs.join('')).not.toContain(secret);
    },
  );
});

/**
 * Issue 27: a password reset, an email verification and two-factor sign-ins (enrolment, a code,
 * a recovery code, `/connect`'s code step) through the real routes: no link token, TOTP secret,
 * code, recovery code or step proof in any log line.
 */
describe('account secrets in logs', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('logs none of them', async () => {
    const secrets: string[] = [];
    const codes: string[] = [];
    const dev = new PageAgent(t.apps.production, '10.3.0.1');
    await dev.signUp('logs@example.com', 'logs-portal-pw-01');
    await t.deps.mailer.drain();
    const outbox = path.join(t.deps.config.dataDir, 'outbox');
    const links = () =>
      fs
        .readdirSync(outbox)
        .flatMap((f) => [
          ...fs
            .readFileSync(path.join(outbox, f), 'utf8')
            .replace(/=\r?\n/g, '')
            .matchAll(/token=3D([\w-]{43})|token=([\w-]{43})/g),
        ])
        .map((m) => (m[1] ?? m[2]) as string);
    // Verification link, followed.
    const verify = links()[0] as string;
    secrets.push(verify);
    await dev.get(`/portal/verify?token=${verify}`);
    // Reset link, followed.
    await dev.get('/portal/forgot');
    await dev.post('/portal/forgot', { email: 'logs@example.com' });
    await t.deps.mailer.drain();
    const reset = links().find((l) => !secrets.includes(l)) as string;
    secrets.push(reset);
    await dev.get(`/portal/reset?token=${reset}`);
    await dev.post('/portal/reset', { token: reset, password: 'logs-portal-pw-02' });
    // Two-factor: enrol, confirm, sign in with a code and with a recovery code.
    await dev.signIn('portal', 'logs@example.com', 'logs-portal-pw-02');
    await dev.get('/portal/account');
    const enrol = await dev.post('/portal/two-factor/enrol');
    const secret = (/id="totp-secret">([A-Z2-7 ]+)</.exec(enrol.body)?.[1] ?? '').replace(/ /g, '');
    secrets.push(secret);
    const code = async () => {
      const c = await generate({ secret, epoch: Math.floor(t.clock.now() / 1000) });
      codes.push(c);
      return c;
    };
    const confirmed = await dev.post('/portal/two-factor/confirm', { code: await code() });
    const recovery = [...confirmed.body.matchAll(/<li><code>([0-9a-z-]{19})<\/code>/g)].map(
      (m) => m[1] as string,
    );
    secrets.push(...recovery);
    t.clock.advance(30_000);
    const again = new PageAgent(t.apps.production, '10.3.0.2');
    await again.signIn('portal', 'logs@example.com', 'logs-portal-pw-02');
    await again.get('/portal/two-factor');
    await again.post('/portal/two-factor', { code: await code() });
    const third = new PageAgent(t.apps.production, '10.3.0.3');
    await third.signIn('portal', 'logs@example.com', 'logs-portal-pw-02');
    await third.get('/portal/two-factor');
    await third.post('/portal/two-factor', { code: recovery[0] as string });
    // /connect's code step.
    const user = await t.deps.users.add({
      environment: 'testing',
      email: 'u-logs@example.com',
      password: 'u-logs-password-1',
    });
    const ref = { kind: 'user' as const, id: user.id, email: user.email, environment: 'testing' as const };
    const userSecret = (await t.deps.secondFactors.begin(ref)).secret;
    secrets.push(userSecret);
    const userCode = await generate({ secret: userSecret, epoch: Math.floor(t.clock.now() / 1000) });
    codes.push(userCode);
    await t.deps.secondFactors.confirm(ref, userCode, { kind: 'cli', id: null, email: null, ip: null });
    t.clock.advance(30_000);
    const page = await openLogin(t.apps.testing, {
      apiKey: t.fixtures.keys.testing.key,
      destination: 'https://app.example.com/callback',
    });
    const step = await submitLogin(t.apps.testing, page, {
      email: 'u-logs@example.com',
      password: 'u-logs-password-1',
    });
    const proof = /name="step" value="([^"]+)"/.exec(step.body)?.[1] as string;
    secrets.push(proof);
    const last = await generate({ secret: userSecret, epoch: Math.floor(t.clock.now() / 1000) });
    codes.push(last);
    const done = await t.apps.testing.inject({
      method: 'POST',
      url: '/auth/two-factor',
      headers: { ...FORM, cookie: page.cookie },
      payload: new URLSearchParams({ ticket: page.ticket, step: proof, code: last }).toString(),
    });
    expect(done.statusCode).toBe(303);
    // The user's sessions, listed and ended with the access token of that login.
    const jwt = new URL(String(done.headers.location)).searchParams.get('jwt') as string;
    secrets.push(jwt);
    const asUser = { 'x-api-key': t.fixtures.keys.testing.key, authorization: `Bearer ${jwt}` };
    const listed = await t.apps.testing.inject({ url: '/v1/me/sessions', headers: asUser });
    const sessionId = listed.json().data[0].id as string;
    const ended = await t.apps.testing.inject({
      method: 'DELETE',
      url: `/v1/me/sessions/${sessionId}`,
      headers: asUser,
    });
    expect(ended.statusCode).toBe(204);

    expect(secrets.filter(Boolean).length).toBeGreaterThan(14);
    const logs = t.logs.join('');
    for (const value of secrets) expect(logs).not.toContain(value);
    for (const c of codes) expect(logs).not.toMatch(new RegExp(`(?<![0-9])${c}(?![0-9])`));
  });
});
