import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../keys/model.js';
import { MAX_STATE_LENGTH } from '../login-ticket.js';
import { type AuthorizeOutcome, authorizeRequest } from './authorize-request.js';
import { MAX_NONCE_LENGTH } from './nonce-check.js';

/**
 * The steps of `/authorize` in their order, on a fake login flow: what is refused as a page, what
 * goes back to the redirect URI (the first failing check answers), and the ticket of a good request.
 */
const REDIRECT = 'https://app.example.com/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const secret = { id: 'key_secret', kind: 'secret', refreshAllowed: false } as KeyRecord;
const publishable = { id: 'key_pub', kind: 'publishable', refreshAllowed: false } as KeyRecord;
const refreshing = { id: 'key_refresh', kind: 'secret', refreshAllowed: true } as KeyRecord;

const flow = {
  async checkClientId(clientId: string | undefined) {
    const key = [secret, publishable, refreshing].find((k) => k.id === clientId);
    return key
      ? ({ ok: true, key } as const)
      : ({
          ok: false,
          code: 'invalid_client',
          message: 'The application is not known here (client_id).',
        } as const);
  },
  async checkDestination(_key: KeyRecord, raw: string | undefined | null) {
    if (raw === null) return { ok: false, reason: 'The destination was given more than once.' } as const;
    return raw === REDIRECT
      ? ({ ok: true, url: new URL(raw), projectName: 'Shop' } as const)
      : ({ ok: false, reason: 'The destination is not registered for this project.' } as const);
  },
};

/** A query as Fastify parses it: a parameter set to undefined is one not sent. */
const valid = (extra: Record<string, unknown> = {}): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries({
      response_type: 'code',
      client_id: secret.id,
      redirect_uri: REDIRECT,
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      state: 'xyz',
      ...extra,
    }).filter(([, value]) => value !== undefined),
  );
const run = (query: Record<string, unknown>) => authorizeRequest(query, { flow, environment: 'testing' });
const redirected = (outcome: AuthorizeOutcome) =>
  !outcome.ok && outcome.at === 'redirect'
    ? { error: outcome.error, description: outcome.description, state: outcome.state }
    : outcome;

describe('authorizeRequest: the client and its redirect URI, refused as pages', () => {
  it('refuses a repeated, unknown or publishable client_id before looking at anything else', async () => {
    const broken = { response_type: 'token', prompt: 'none' };
    expect(await run(valid({ ...broken, client_id: [secret.id, secret.id] }))).toEqual({
      ok: false,
      at: 'page',
      refusal: { ok: false, code: 'invalid_client', message: 'The client_id was given more than once.' },
    });
    expect(await run(valid({ ...broken, client_id: 'key_nobody' }))).toMatchObject({
      at: 'page',
      refusal: { code: 'invalid_client', message: 'The application is not known here (client_id).' },
    });
    expect(await run(valid({ ...broken, client_id: publishable.id }))).toMatchObject({
      at: 'page',
      refusal: { code: 'invalid_client', message: expect.stringContaining('publishable key') },
    });
  });

  it('refuses a missing, unregistered or repeated redirect_uri, naming redirect_uri', async () => {
    expect(await run(valid({ redirect_uri: [REDIRECT, REDIRECT] }))).toEqual({
      ok: false,
      at: 'page',
      refusal: {
        ok: false,
        code: 'invalid_redirect_uri',
        message: 'The redirect_uri was given more than once.',
      },
    });
    expect(await run(valid({ redirect_uri: 'https://evil.example/' }))).toMatchObject({
      at: 'page',
      refusal: {
        code: 'invalid_redirect_uri',
        message: 'The redirect_uri is not registered for this project.',
      },
    });
  });
});

describe('authorizeRequest: errors at the redirect URI, the first failing check answering', () => {
  // Each row breaks one more check than the rows below it: the earliest check must answer.
  const rows: [string, Record<string, unknown>, string, string][] = [
    [
      'a repeated parameter',
      { scope: ['openid', 'email'] },
      'invalid_request',
      'Parameters given more than once: scope.',
    ],
    [
      'a state too long',
      { state: 'x'.repeat(MAX_STATE_LENGTH + 1) },
      'invalid_request',
      `The state has more than ${MAX_STATE_LENGTH} characters.`,
    ],
    ['a request object', { request: 'eyJ' }, 'request_not_supported', 'Request objects are not supported.'],
    [
      'a request_uri',
      { request_uri: 'https://x' },
      'request_uri_not_supported',
      'request_uri is not supported.',
    ],
    ['no response_type', { response_type: undefined }, 'invalid_request', 'response_type is missing.'],
    [
      'response_type=token',
      { response_type: 'token' },
      'unsupported_response_type',
      'Only response_type=code is supported.',
    ],
    [
      'no code_challenge',
      { code_challenge: undefined },
      'invalid_request',
      'PKCE is required: send code_challenge with code_challenge_method=S256.',
    ],
    [
      'the plain method',
      { code_challenge_method: 'plain' },
      'invalid_request',
      'Only code_challenge_method=S256 is supported.',
    ],
    [
      'a challenge of 42 characters',
      { code_challenge: CHALLENGE.slice(1) },
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the verifier (43 characters).',
    ],
    ['an unknown scope', { scope: 'openid admin' }, 'invalid_scope', 'Unknown scope: admin.'],
    [
      'a nonce too long',
      { nonce: 'n'.repeat(MAX_NONCE_LENGTH + 1) },
      'invalid_request',
      `The nonce has more than ${MAX_NONCE_LENGTH} characters.`,
    ],
    ['prompt=none', { prompt: 'login none' }, 'login_required', 'The user must sign in.'],
  ];
  rows.forEach(([name, _extra, error, description], index) => {
    it(`answers ${error} for ${name}`, async () => {
      const query = valid();
      // This row's fault and every fault of the rows below it.
      for (const [, extra] of rows.slice(index)) {
        for (const [param, value] of Object.entries(extra)) {
          if (value === undefined) delete query[param];
          else query[param] = value;
        }
      }
      // A later row may have removed what an earlier one changes; put this row's fault back.
      for (const [param, value] of Object.entries(_extra)) {
        if (value === undefined) delete query[param];
        else query[param] = value;
      }
      const outcome = redirected(await run(query));
      expect(outcome).toMatchObject({ error, description });
    });
  });

  it('echoes a state once and of at most 512 characters, and no other', async () => {
    const max = 's'.repeat(MAX_STATE_LENGTH);
    expect(redirected(await run(valid({ state: max, prompt: 'none' })))).toMatchObject({ state: max });
    expect(redirected(await run(valid({ state: `${max}s` })))).toMatchObject({ state: null });
    expect(redirected(await run(valid({ state: ['a', 'b'] })))).toMatchObject({ state: null });
    expect(redirected(await run(valid({ state: undefined, prompt: 'none' })))).toMatchObject({ state: null });
  });
});

describe('authorizeRequest: the ticket of a good request', () => {
  it('carries the redirect URI, state, PKCE challenge, nonce and the scope granted', async () => {
    const nonce = 'n'.repeat(MAX_NONCE_LENGTH);
    const state = 's'.repeat(MAX_STATE_LENGTH);
    expect(await run(valid({ nonce, state, scope: 'openid offline_access email' }))).toEqual({
      ok: true,
      projectName: 'Shop',
      destination: new URL(REDIRECT),
      ticket: {
        keyId: secret.id,
        environment: 'testing',
        destination: REDIRECT,
        state,
        // No refresh permission: no offline_access.
        oauth: { challenge: CHALLENGE, nonce, scope: 'openid email' },
      },
    });
  });

  it('grants offline_access to a key with the refresh permission; no state, no nonce, no scope are null and empty', async () => {
    const outcome = await run(valid({ client_id: refreshing.id, scope: 'offline_access' }));
    expect(outcome.ok && outcome.ticket.oauth).toEqual({
      challenge: CHALLENGE,
      nonce: null,
      scope: 'offline_access',
    });
    const bare = await run(valid({ state: undefined }));
    expect(bare.ok && bare.ticket).toMatchObject({ state: null, oauth: { nonce: null, scope: '' } });
  });
});
