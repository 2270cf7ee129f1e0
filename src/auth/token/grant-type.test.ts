import { describe, expect, it } from 'vitest';
import type { Grant } from '../oauth.js';
import { selectGrant } from './grant-type.js';

describe('selectGrant', () => {
  const code: Grant = async () => ({ ok: false, error: 'invalid_grant', description: 'code' });
  const refresh: Grant = async () => ({ ok: false, error: 'invalid_grant', description: 'refresh' });
  const grants = { authorization_code: code, refresh_token: refresh };

  it('names the grant of each grant type served', () => {
    expect(selectGrant(grants, 'authorization_code')).toEqual({ ok: true, grant: code });
    expect(selectGrant(grants, 'refresh_token')).toEqual({ ok: true, grant: refresh });
  });

  it('answers invalid_request without grant_type, unsupported_grant_type for any other', () => {
    expect(selectGrant(grants, undefined)).toEqual({
      ok: false,
      error: 'invalid_request',
      description: 'grant_type is missing.',
    });
    for (const other of ['', 'password', 'client_credentials', 'REFRESH_TOKEN', 'toString', '__proto__']) {
      expect(selectGrant(grants, other)).toEqual({
        ok: false,
        error: 'unsupported_grant_type',
        description: 'Use authorization_code or refresh_token.',
      });
    }
  });
});
