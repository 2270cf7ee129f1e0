import { calculatePKCECodeChallenge } from 'openid-client';
import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../keys/model.js';
import { grantedScope, parseScope, S256_CHALLENGE, verifierMatches } from './oauth.js';

describe('PKCE S256 (RFC 7636)', () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('accepts the RFC test vector, and what openid-client computes', async () => {
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(S256_CHALLENGE.test(challenge)).toBe(true);
    const other = `${'a'.repeat(43)}-._~`;
    expect(verifierMatches(other, await calculatePKCECodeChallenge(other))).toBe(true);
  });

  it('refuses another verifier, the challenge itself (plain), and verifiers of the wrong length or alphabet', () => {
    expect(verifierMatches(`${verifier.slice(0, -1)}j`, challenge)).toBe(false);
    expect(verifierMatches(challenge, challenge)).toBe(false);
    expect(verifierMatches('a'.repeat(42), challenge)).toBe(false);
    expect(verifierMatches('a'.repeat(129), challenge)).toBe(false);
    expect(verifierMatches(`${verifier.slice(0, -1)}+`, challenge)).toBe(false);
  });
});

describe('scopes', () => {
  const key = (refreshAllowed: boolean) => ({ refreshAllowed }) as KeyRecord;

  it('parses space-separated known scopes once each, and names an unknown one', () => {
    expect(parseScope('openid  email openid')).toEqual({ ok: true, scopes: ['openid', 'email'] });
    expect(parseScope(undefined)).toEqual({ ok: true, scopes: [] });
    expect(parseScope('openid admin')).toEqual({ ok: false, unknown: 'admin' });
    expect(parseScope('OPENID')).toEqual({ ok: false, unknown: 'OPENID' });
  });

  it('grants offline_access only to a key with the refresh permission', () => {
    expect(grantedScope(['openid', 'offline_access'], key(true))).toBe('openid offline_access');
    expect(grantedScope(['openid', 'offline_access'], key(false))).toBe('openid');
  });
});
