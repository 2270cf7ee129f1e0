import { describe, expect, it } from 'vitest';
import { join, retryAfterMs, withQuery } from './transport.js';

describe('transport helpers', () => {
  it('repeats array parameters and skips unset ones', () => {
    expect(
      withQuery('http://h/v1/offers/', { q: 'road bike', category: ['a', 'b'], city: undefined, limit: 5 }),
    ).toBe('http://h/v1/offers/?q=road+bike&category=a&category=b&limit=5');
    expect(withQuery('http://h/v1/key', {})).toBe('http://h/v1/key');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:05 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(
      5000,
    );
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });

  it('joins base URLs with or without a trailing slash', () => {
    expect(join('http://h/v1/', '/offers/')).toBe('http://h/v1/offers/');
    expect(join('http://h/v1', 'key')).toBe('http://h/v1/key');
  });
});
