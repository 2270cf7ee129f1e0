import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../keys/model.js';
import type { KeyVerifier, VerifyResult } from '../../keys/verifier.js';
import { authenticateClient } from './client-authentication.js';

/** RFC 6749 §2.3.1 as `/token` and `/revoke` read it: Basic or post, never both; the key is the secret. */
const client = { id: 'key_client', kind: 'secret' } as KeyRecord;
const publishable = { id: 'key_pub', kind: 'publishable' } as KeyRecord;
const SECRETS: Record<string, KeyRecord> = { vk_test_secret: client, vk_pub_secret: publishable };

function setup() {
  const calls: string[] = [];
  const verifier = {
    verify(raw: string): VerifyResult {
      calls.push('verify');
      const key = SECRETS[raw];
      return key ? { ok: true, key } : { ok: false, code: 'api_key_invalid', reason: 'unknown' };
    },
  } as unknown as KeyVerifier;
  const budget = {
    check: () => {
      calls.push('check');
      return null;
    },
    failed: async () => {
      calls.push('failed');
    },
  };
  const authenticate = (authorization: string | undefined, form: Record<string, string> = {}) =>
    authenticateClient({ authorization, form, budget }, { verifier, environment: 'testing' });
  return { calls, authenticate };
}
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('authenticateClient', () => {
  it('accepts client_secret_basic and client_secret_post, checking the address budget before the key', async () => {
    const { calls, authenticate } = setup();
    expect(await authenticate(basic(client.id, 'vk_test_secret'))).toEqual({
      ok: true,
      key: client,
      method: 'client_secret_basic',
    });
    expect(await authenticate(undefined, { client_id: client.id, client_secret: 'vk_test_secret' })).toEqual({
      ok: true,
      key: client,
      method: 'client_secret_post',
    });
    expect(calls).toEqual(['check', 'verify', 'check', 'verify']);
  });

  it('form-decodes both parts of Basic credentials (RFC 6749 §2.3.1) and takes a lower-case scheme', async () => {
    const { authenticate } = setup();
    const header = `basic ${Buffer.from(`key%5Fclient:vk%5Ftest%5Fsecret`).toString('base64')}`;
    expect(await authenticate(header)).toMatchObject({ ok: true, method: 'client_secret_basic' });
  });

  it('reads another scheme (Bearer) as no Basic credentials: the body authenticates', async () => {
    const { authenticate } = setup();
    expect(
      await authenticate('Bearer a.b.c', { client_id: client.id, client_secret: 'vk_test_secret' }),
    ).toMatchObject({ ok: true, method: 'client_secret_post' });
  });

  it('refuses malformed Basic credentials as invalid_client, without spending the budget', async () => {
    const { calls, authenticate } = setup();
    for (const header of ['Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
      expect(await authenticate(header)).toEqual({
        ok: false,
        error: 'invalid_client',
        description: 'The Authorization header is not valid HTTP Basic credentials.',
      });
    }
    expect(await authenticate(`Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`)).toMatchObject({
      error: 'invalid_client',
    });
    expect(calls).toEqual([]);
  });

  it('refuses two methods, and a client_id that is not the authenticated one, as invalid_request', async () => {
    const { calls, authenticate } = setup();
    expect(
      await authenticate(basic(client.id, 'vk_test_secret'), { client_secret: 'vk_test_secret' }),
    ).toEqual({
      ok: false,
      error: 'invalid_request',
      description: 'Use one client authentication method, not two.',
    });
    expect(await authenticate(basic(client.id, 'vk_test_secret'), { client_id: 'key_other' })).toEqual({
      ok: false,
      error: 'invalid_request',
      description: 'client_id differs from the authenticated client.',
    });
    expect(calls).toEqual([]);
  });

  it('refuses missing credentials, a wrong secret, and a secret of another key; only the last two spend the budget', async () => {
    const { calls, authenticate } = setup();
    const asks = 'Authenticate with the key id as client_id and the secret key as client_secret.';
    expect(await authenticate(undefined, { client_id: client.id })).toEqual({
      ok: false,
      error: 'invalid_client',
      description: asks,
    });
    expect(calls).toEqual([]);
    const failed = { ok: false, error: 'invalid_client', description: 'Client authentication failed.' };
    expect(await authenticate(undefined, { client_id: client.id, client_secret: 'vk_test_wrong' })).toEqual(
      failed,
    );
    expect(await authenticate(basic('key_other', 'vk_test_secret'))).toEqual(failed);
    expect(calls).toEqual(['check', 'verify', 'failed', 'check', 'verify', 'failed']);
  });

  it('refuses a publishable key as invalid_client (it signs nobody in)', async () => {
    const { authenticate } = setup();
    expect(await authenticate(basic(publishable.id, 'vk_pub_secret'))).toMatchObject({
      ok: false,
      error: 'invalid_client',
      description: expect.stringContaining('publishable key'),
    });
  });
});
