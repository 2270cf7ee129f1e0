import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.js';

describe('redactUrl', () => {
  it('replaces the values of secret query parameters, whatever their case or encoding', () => {
    expect(redactUrl('/v1/offers/?q=bike&apiKey=vk_test_x&limit=2')).toBe(
      '/v1/offers/?q=bike&apiKey=[REDACTED]&limit=2',
    );
    expect(redactUrl('/cb?jwt=a.b.c&refresh=r1&state=s')).toBe(
      '/cb?jwt=[REDACTED]&refresh=[REDACTED]&state=s',
    );
    expect(redactUrl('/x?APIKEY=1&api%4Bey=2')).toBe('/x?APIKEY=[REDACTED]&api%4Bey=[REDACTED]');
    expect(redactUrl('/x?password=hunter2')).toBe('/x?password=[REDACTED]');
  });

  it('redacts a secret parameter in any other shape (issue 13)', () => {
    for (const name of [
      'apiKey[]',
      'apiKey%5B%5D',
      'apiKey[0]',
      'api_key',
      'API-KEY',
      '+apiKey',
      'apiKey.x',
      'refresh_token[]',
    ]) {
      expect(redactUrl(`/v1/offers/?${name}=vk_test_secret&q=a`), name).toBe(
        `/v1/offers/?${name}=[REDACTED]&q=a`,
      );
    }
  });

  it('leaves URLs without secrets alone, including undecodable ones', () => {
    expect(redactUrl('/v1/offers/')).toBe('/v1/offers/');
    expect(redactUrl('/v1/offers/?q=%E0%A4%A')).toBe('/v1/offers/?q=%E0%A4%A');
  });
});
