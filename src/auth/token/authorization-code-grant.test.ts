import type { CryptoKey } from 'jose';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../keys/model.js';
import { ManualClock } from '../../platform/clock.js';
import type { User } from '../../users/model.js';
import { type AuthorizationCode, CODE_TTL_MS, hashCode } from '../authorization-codes.js';
import type { Signer, SigningKeys } from '../signing-keys.js';
import { authorizationCodeGrant } from './authorization-code-grant.js';

/**
 * The `authorization_code` grant on fakes of its stores: every binding of a code, its single use
 * (a replay ends what it issued), its minute, and what the answer holds for each scope.
 */
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'; // RFC 7636 Appendix B
const CODE = `vac_${'a'.repeat(43)}`;
const REDIRECT = 'https://app.example.com/callback';
const ISSUER = 'http://localhost:8081/auth';
const key = { id: 'key_client', environment: 'testing', refreshAllowed: true } as KeyRecord;
const alice = { id: 'usr_alice', environment: 'testing', state: 'active' } as User;

let signer: Signer;
let publicKey: CryptoKey;
beforeAll(async () => {
  const pair = await generateKeyPair('EdDSA', { extractable: true });
  signer = { kid: 'kid_1', privateKey: pair.privateKey };
  publicKey = pair.publicKey;
  expect((await exportJWK(publicKey)).crv).toBe('Ed25519');
});

function setup(over: Partial<AuthorizationCode> = {}, user: User | null = alice) {
  const clock = new ManualClock();
  const now = clock.now();
  const stored: AuthorizationCode = {
    codeHash: hashCode(CODE),
    familyId: 'rtf_family',
    keyId: key.id,
    userId: alice.id,
    environment: 'testing',
    redirectUri: REDIRECT,
    codeChallenge: CHALLENGE,
    scope: 'openid offline_access',
    nonce: 'n-0S6_WzA2Mj',
    authTime: now - 5_000,
    createdAt: now,
    expiresAt: now + CODE_TTL_MS,
    usedAt: null,
    origin: { ip: '203.0.113.9', userAgent: 'Firefox' },
    ...over,
  };
  const log: string[] = [];
  const grant = authorizationCodeGrant({
    clock,
    authUrls: { production: 'https://p/auth', testing: ISSUER },
    signingKeys: { signer: async () => signer } as unknown as SigningKeys,
    codes: {
      insert: async () => {},
      find: async (hash) => {
        log.push('find');
        return hash === stored.codeHash ? { ...stored } : undefined;
      },
      consume: async (hash, at) => {
        log.push(`consume ${at - now}`);
        if (hash !== stored.codeHash || stored.usedAt !== null) return false;
        stored.usedAt = at;
        return true;
      },
    },
    refreshTokens: {
      revokeFamily: async (familyId, reason) => {
        log.push(`revoke ${familyId} ${reason}`);
        return 1;
      },
    },
    users: { get: async (id) => (user && id === user.id ? user : undefined) },
    tokens: {
      grant: async (u, k, g) => {
        log.push(`grant ${u.id} ${k.id} ${g.familyId} [${g.scope}] offline=${g.offline} ${g.origin.ip}`);
        return {
          accessToken: 'a.b.c',
          expiresAt: clock.now() + 36_000_000,
          refreshToken: g.offline ? 'vrt_1' : null,
          familyId: g.familyId,
          scope: g.scope,
        };
      },
    },
  });
  const exchange = (form: Record<string, string | undefined> = {}, who: KeyRecord = key) =>
    grant(who, { code: CODE, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...form });
  return { clock, stored, log, exchange };
}

const invalidGrant = (description: string) => ({ ok: false, error: 'invalid_grant', description });

describe('authorizationCodeGrant', () => {
  it('asks for code, redirect_uri and code_verifier before looking anything up', async () => {
    const { exchange, log } = setup();
    for (const missing of ['code', 'redirect_uri', 'code_verifier']) {
      expect(await exchange({ [missing]: '' })).toEqual({
        ok: false,
        error: 'invalid_request',
        description: 'Send code, redirect_uri and code_verifier.',
      });
    }
    expect(log).toEqual([]);
  });

  it('exchanges a good code once: tokens of its family and origin, an ID token with nonce, aud and auth_time', async () => {
    const { exchange, log, stored } = setup();
    const result = await exchange();
    if (!result.ok) throw new Error(result.description);
    expect(result.response).toMatchObject({
      access_token: 'a.b.c',
      token_type: 'Bearer',
      expires_in: 36_000,
      scope: 'openid offline_access',
      refresh_token: 'vrt_1',
    });
    expect(log).toEqual([
      'find',
      'consume 0',
      'grant usr_alice key_client rtf_family [openid offline_access] offline=true 203.0.113.9',
    ]);
    const idToken = result.response.id_token as string;
    expect(decodeProtectedHeader(idToken)).toEqual({ alg: 'EdDSA', kid: 'kid_1', typ: 'JWT' });
    const { payload } = await jwtVerify(idToken, publicKey, {
      issuer: ISSUER,
      audience: key.id,
      currentDate: new Date(stored.createdAt),
    });
    expect(payload).toMatchObject({
      sub: alice.id,
      nonce: 'n-0S6_WzA2Mj',
      auth_time: Math.floor(stored.authTime / 1000),
    });
    expect(payload.exp).toBe(Math.floor((stored.createdAt + 36_000_000) / 1000));
  });

  it('answers a replay with invalid_grant and revokes the family the code started', async () => {
    const { exchange, log } = setup();
    expect((await exchange()).ok).toBe(true);
    expect(await exchange()).toEqual(
      invalidGrant('The authorization code was already used; the tokens issued for it are revoked.'),
    );
    expect(log.slice(-1)).toEqual(['revoke rtf_family code_replayed']);
  });

  it('revokes the family too when another exchange consumed the code meanwhile (a lost race)', async () => {
    const { exchange, log, stored } = setup();
    const racing = exchange();
    stored.usedAt = stored.createdAt; // consumed between our find and our consume
    expect(await racing).toEqual(
      invalidGrant('The authorization code was already used; the tokens issued for it are revoked.'),
    );
    expect(log).toEqual(['find', 'consume 0', 'revoke rtf_family code_replayed']);
  });

  it('lives its minute: good at expiry − 1 ms, expired at expiry', async () => {
    const late = setup();
    late.clock.advance(CODE_TTL_MS);
    expect(await late.exchange()).toEqual(invalidGrant('The authorization code has expired.'));
    const justInTime = setup();
    justInTime.clock.advance(CODE_TTL_MS - 1);
    expect((await justInTime.exchange()).ok).toBe(true);
  });

  it('answers one invalid_grant for a code of another client or environment, or none at all, and never looks up a malformed one', async () => {
    const notValid = invalidGrant('The authorization code is not valid for this client.');
    const { exchange, log } = setup();
    expect(await exchange({}, { ...key, id: 'key_other' })).toEqual(notValid);
    expect(await exchange({}, { ...key, environment: 'production' })).toEqual(notValid);
    expect(await exchange({ code: `vac_${'b'.repeat(43)}` })).toEqual(notValid);
    expect(log).toEqual(['find', 'find', 'find']);
    expect(await exchange({ code: `vac_${'a'.repeat(42)}` })).toEqual(notValid);
    expect(await exchange({ code: `${CODE}=` })).toEqual(notValid);
    expect(log).toEqual(['find', 'find', 'find']);
  });

  it('does not burn the code on a wrong redirect_uri or verifier: its client can still exchange it', async () => {
    const { exchange, log } = setup();
    expect(await exchange({ redirect_uri: `${REDIRECT}?x=1` })).toEqual(
      invalidGrant('The redirect_uri is not the one the authorization code was issued for.'),
    );
    expect(await exchange({ code_verifier: `${VERIFIER.slice(0, -1)}j` })).toEqual(
      invalidGrant('The code_verifier does not match the code_challenge.'),
    );
    expect(await exchange({ code_verifier: CHALLENGE })).toEqual(
      invalidGrant('The code_verifier does not match the code_challenge.'),
    );
    expect(log).toEqual(['find', 'find', 'find']);
    expect((await exchange()).ok).toBe(true);
  });

  it('refuses a user who can no longer sign in, after spending the code', async () => {
    const gone = invalidGrant('The user of this authorization code can no longer sign in.');
    expect(await setup({}, null).exchange()).toEqual(gone);
    expect(await setup({}, { ...alice, state: 'disabled' } as User).exchange()).toEqual(gone);
    const moved = setup({}, { ...alice, environment: 'production' });
    expect(await moved.exchange()).toEqual(gone);
    expect(moved.log).toEqual(['find', 'consume 0']);
  });

  it('grants what the key may hold now: offline_access dropped when the refresh permission went', async () => {
    const { exchange, log } = setup();
    const result = await exchange({}, { ...key, refreshAllowed: false });
    expect(result.ok && result.response.scope).toBe('openid');
    expect(result.ok && result.response.refresh_token).toBeUndefined();
    expect(log.at(-1)).toContain('[openid] offline=false');
  });

  it('adds an ID token only with openid, and its nonce only when one was asked', async () => {
    const plain = await setup({ scope: 'email' }).exchange();
    expect(plain.ok && plain.response).toEqual({
      access_token: 'a.b.c',
      token_type: 'Bearer',
      expires_in: 36_000,
      scope: 'email',
    });
    const noNonce = await setup({ nonce: null, scope: 'openid' }).exchange();
    expect(noNonce.ok && decodeJwt(noNonce.response.id_token as string).nonce).toBeUndefined();
  });
});
