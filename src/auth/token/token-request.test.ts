import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../keys/model.js';
import type { KeyVerifier } from '../../keys/verifier.js';
import type { Grant } from '../oauth.js';
import { tokenRequest } from './token-request.js';

/** `/token`'s steps in their order: the form, then the client, then the grant type, then the grant. */
const client = { id: 'key_client', kind: 'secret' } as KeyRecord;

function setup() {
  const log: string[] = [];
  const verifier = {
    verify(raw: string) {
      log.push('verify');
      return raw === 'vk_test_secret'
        ? { ok: true, key: client }
        : { ok: false, code: 'api_key_invalid', reason: 'unknown' };
    },
  } as unknown as KeyVerifier;
  const grant: Grant = async (key, form) => {
    log.push(`grant ${key.id} ${form.code}`);
    return form.code === 'good'
      ? { ok: true, response: { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 60, scope: '' } }
      : { ok: false, error: 'invalid_grant', description: 'No.' };
  };
  const budget = { check: () => null, failed: async () => {} };
  const send = (body: unknown, authorization?: string) =>
    tokenRequest(
      { body, authorization, budget },
      {
        oauth: { grants: { authorization_code: grant, refresh_token: grant } },
        verifier,
        environment: 'testing',
      },
    );
  return { log, send };
}
const authenticated = { client_id: client.id, client_secret: 'vk_test_secret' };

describe('tokenRequest', () => {
  it('refuses a body that is no form before authenticating anyone', async () => {
    const { log, send } = setup();
    expect(await send(null)).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(await send({ ...authenticated, grant_type: ['a', 'b'] })).toMatchObject({
      error: 'invalid_request',
      description: 'Parameters given more than once: grant_type.',
    });
    expect(log).toEqual([]);
  });

  it('authenticates the client before reading the grant type', async () => {
    const { log, send } = setup();
    expect(await send({ grant_type: 'password' })).toMatchObject({ error: 'invalid_client' });
    expect(
      await send({ ...authenticated, client_secret: 'vk_test_wrong', grant_type: 'password' }),
    ).toMatchObject({
      error: 'invalid_client',
    });
    expect(await send({ ...authenticated, grant_type: 'password' })).toMatchObject({
      error: 'unsupported_grant_type',
    });
    expect(await send(authenticated)).toMatchObject({
      error: 'invalid_request',
      description: 'grant_type is missing.',
    });
    expect(log).toEqual(['verify', 'verify', 'verify']);
  });

  it("runs the grant for the client's key, and answers its refusal or its tokens with the key and grant type", async () => {
    const { log, send } = setup();
    expect(await send({ ...authenticated, grant_type: 'authorization_code', code: 'bad' })).toEqual({
      ok: false,
      error: 'invalid_grant',
      description: 'No.',
    });
    expect(await send({ ...authenticated, grant_type: 'authorization_code', code: 'good' })).toEqual({
      ok: true,
      key: client,
      grantType: 'authorization_code',
      response: { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 60, scope: '' },
    });
    expect(log).toEqual(['verify', 'grant key_client bad', 'verify', 'grant key_client good']);
  });
});
