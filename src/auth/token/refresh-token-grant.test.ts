import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../keys/model.js';
import type { RefreshOutcome } from '../tokens.js';
import { refreshTokenGrant } from './refresh-token-grant.js';

describe('refreshTokenGrant', () => {
  const key = { id: 'key_client' } as KeyRecord;
  const NOW = 1_700_000_000_000;
  const grantAnswering = (outcome: RefreshOutcome) => {
    const seen: string[] = [];
    const grant = refreshTokenGrant({
      clock: { now: () => NOW },
      tokens: {
        refresh: async (raw, k) => {
          seen.push(`${raw} ${k.id}`);
          return outcome;
        },
      },
    });
    return { grant, seen };
  };

  it('asks for refresh_token before refreshing anything', async () => {
    const { grant, seen } = grantAnswering({ ok: false, code: 'refresh_token_invalid' });
    expect(await grant(key, {})).toEqual({
      ok: false,
      error: 'invalid_request',
      description: 'Send refresh_token.',
    });
    expect(await grant(key, { refresh_token: '' })).toMatchObject({ error: 'invalid_request' });
    expect(seen).toEqual([]);
  });

  it('answers the tokens of the refresh, for the key of the client', async () => {
    const tokens = {
      accessToken: 'a.b.c',
      expiresAt: NOW + 3_600_000,
      refreshToken: 'vrt_next',
      familyId: 'rtf_1',
      scope: 'openid offline_access',
    };
    const { grant, seen } = grantAnswering({ ok: true, tokens, user: {} as never });
    expect(await grant(key, { refresh_token: 'vrt_old' })).toEqual({
      ok: true,
      response: {
        access_token: 'a.b.c',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'openid offline_access',
        refresh_token: 'vrt_next',
      },
    });
    expect(seen).toEqual(['vrt_old key_client']);
  });

  it.each([
    ['refresh_not_permitted', 'unauthorized_client', 'This client does not have the refresh permission.'],
    ['refresh_token_invalid', 'invalid_grant', 'The refresh token is not valid for this client.'],
    ['refresh_token_expired', 'invalid_grant', 'The refresh token has expired.'],
    ['refresh_token_revoked', 'invalid_grant', 'The refresh token has been revoked.'],
  ] as const)('answers %s as %s', async (code, error, description) => {
    const { grant } = grantAnswering({ ok: false, code });
    expect(await grant(key, { refresh_token: 'vrt_x' })).toEqual({ ok: false, error, description });
  });
});
