import { describe, expect, it } from 'vitest';
import { normaliseRedirectUri } from './redirect-uri.js';

describe('redirect URI registration', () => {
  it('normalises scheme, host case, default port and dot segments', () => {
    expect(normaliseRedirectUri('HTTPS://App.Example.COM:443/a/./b/../callback')).toBe(
      'https://app.example.com/a/callback',
    );
    expect(normaliseRedirectUri('http://localhost:3000/cb')).toBe('http://localhost:3000/cb');
    expect(normaliseRedirectUri('http://127.0.0.1:9/cb')).toBe('http://127.0.0.1:9/cb');
  });

  it.each([
    ['relative', '/callback'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['plain http off loopback', 'http://app.example.com/cb'],
    ['credentials', 'https://user:pw@app.example.com/cb'],
    ['fragment', 'https://app.example.com/cb#x'],
    ['query', 'https://app.example.com/cb?next=1'],
    ['ftp', 'ftp://app.example.com/cb'],
  ])('refuses %s', (_label, uri) => {
    expect(() => normaliseRedirectUri(uri)).toThrow(/redirect URI/);
  });
});
