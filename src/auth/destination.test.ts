import { describe, expect, it } from 'vitest';
import { checkDestination, MAX_DESTINATION_LENGTH, redirectWithTokens } from './destination.js';

const REGISTERED = ['https://app.example.com/callback', 'http://localhost:5173/callback'];

describe('checkDestination', () => {
  it.each([
    ['https://app.example.com/callback', 'https://app.example.com/callback'],
    ['https://app.example.com/callback?tab=2&x=y', 'https://app.example.com/callback?tab=2&x=y'],
    ['HTTPS://APP.EXAMPLE.COM:443/callback', 'https://app.example.com/callback'],
    ['http://localhost:5173/callback?next=%2Fhome', 'http://localhost:5173/callback?next=%2Fhome'],
  ])('accepts %s (its query may vary)', (raw, href) => {
    const result = checkDestination(raw, REGISTERED);
    expect(result.ok && result.url.href).toBe(href);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['another host', 'https://evil.example/callback'],
    ['a look-alike host', 'https://app.example.com.evil.example/callback'],
    ['a sub-domain', 'https://x.app.example.com/callback'],
    ['the trailing-dot host', 'https://app.example.com./callback'],
    ['another port', 'https://app.example.com:8443/callback'],
    ['another scheme', 'http://app.example.com/callback'],
    ['a protocol-relative URL', '//evil.example/callback'],
    ['a relative path', '/callback'],
    ['userinfo that hides the host', 'https://app.example.com@evil.example/callback'],
    ['userinfo with a password', 'https://user:pw@app.example.com/callback'],
    ['an empty userinfo', 'https://@app.example.com/callback'],
    ['javascript:', 'javascript:alert(1)//https://app.example.com/callback'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a fragment', 'https://app.example.com/callback#x'],
    ['a backslash trick', 'https://app.example.com\\@evil.example/callback'],
    ['backslashes as slashes', 'https:\\\\evil.example\\callback'],
    ['path traversal out of the registered path', 'https://app.example.com/callback/../admin'],
    ['encoded path traversal', 'https://app.example.com/callback/%2e%2e/admin'],
    ['an encoded slash', 'https://app.example.com/callback%2F..%2Fadmin'],
    ['a longer path', 'https://app.example.com/callback/more'],
    ['a trailing slash', 'https://app.example.com/callback/'],
    ['a path prefix', 'https://app.example.com/call'],
    ['a tab inside', 'https://app.example.com/call\tback'],
    ['a newline (header injection)', 'https://app.example.com/callback\r\nSet-Cookie: x=1'],
    ['leading whitespace', ' https://app.example.com/callback'],
    ['an encoded host', 'https://%61pp.example.com.evil.example/callback'],
    ['too long', `https://app.example.com/callback?${'a'.repeat(3000)}`],
  ])('refuses %s', (_name, raw) => {
    expect(checkDestination(raw, REGISTERED).ok).toBe(false);
  });

  it('refuses everything when nothing is registered', () => {
    expect(checkDestination('https://app.example.com/callback', []).ok).toBe(false);
  });
});

describe('redirectWithTokens', () => {
  it('keeps the destination query, replaces any jwt/refresh/state it carried, adds the tokens', () => {
    const url = new URL('https://app.example.com/callback?tab=2&jwt=forged&state=old');
    const location = new URL(redirectWithTokens(url, { jwt: 'a.b.c', refresh: 'vrt_x', state: 's 1' }));
    expect(location.origin + location.pathname).toBe('https://app.example.com/callback');
    expect([...location.searchParams]).toEqual([
      ['tab', '2'],
      ['jwt', 'a.b.c'],
      ['refresh', 'vrt_x'],
      ['state', 's 1'],
    ]);
  });

  it('adds no refresh parameter when the key may not refresh', () => {
    const location = redirectWithTokens(new URL('https://app.example.com/callback'), {
      jwt: 'a.b.c',
      refresh: null,
      state: null,
    });
    expect(location).toBe('https://app.example.com/callback?jwt=a.b.c');
  });
});

describe('checkDestination at its length limit', () => {
  it.each([
    [MAX_DESTINATION_LENGTH - 1, true],
    [MAX_DESTINATION_LENGTH, true],
    [MAX_DESTINATION_LENGTH + 1, false],
  ])('a destination of %i characters: accepted %s (issue 26: the length limit pinned)', (length, ok) => {
    const base = 'https://app.example.com/callback?pad=';
    const raw = base + 'x'.repeat(length - base.length);
    expect(raw).toHaveLength(length);
    const result = checkDestination(raw, REGISTERED);
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.reason).toBe('The destination is too long.');
  });
});
