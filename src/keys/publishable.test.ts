import { describe, expect, it } from 'vitest';
import {
  describeFixedFilters,
  parseAllowedOrigin,
  parseAllowedOrigins,
  parseFixedFilters,
} from './publishable.js';

describe('allowed origins (SPEC §3)', () => {
  it('keeps exact scheme://host[:port] in the form browsers send in Origin', () => {
    expect(parseAllowedOrigin('https://shop.example')).toBe('https://shop.example');
    expect(parseAllowedOrigin('https://Shop.Example/')).toBe('https://shop.example');
    expect(parseAllowedOrigin('https://shop.example:443')).toBe('https://shop.example');
    expect(parseAllowedOrigin('https://shop.example:8443')).toBe('https://shop.example:8443');
    expect(parseAllowedOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(parseAllowedOrigin('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(parseAllowedOrigin('http://[::1]:3000')).toBe('http://[::1]:3000');
  });

  it('refuses paths, queries, wildcards, userinfo, plain http and non-URLs', () => {
    for (const bad of [
      'https://shop.example/shop',
      'https://shop.example/?a=1',
      'https://shop.example/#x',
      'https://*.shop.example',
      'https://user:pw@shop.example',
      'http://shop.example',
      'ftp://shop.example',
      'shop.example',
      '*',
      'null',
    ]) {
      expect(() => parseAllowedOrigin(bad), bad).toThrow();
    }
  });

  it('needs one origin at least and deduplicates', () => {
    expect(() => parseAllowedOrigins([])).toThrow(/at least one/);
    expect(parseAllowedOrigins(['https://a.example', 'https://A.example/'])).toEqual(['https://a.example']);
  });
});

describe('fixed filters', () => {
  it('parses name=value pairs: repeatable category and tag, one city, country and currency', () => {
    const filters = parseFixedFilters([
      'category=books',
      'category=music',
      'tag=used',
      'country=fr',
      'currency=eur',
      'city=Lyon',
    ]);
    expect(filters).toEqual({
      category: ['books', 'music'],
      tag: ['used'],
      country: 'FR',
      currency: 'EUR',
      city: 'Lyon',
    });
    expect(describeFixedFilters(filters)).toEqual([
      'category=books',
      'category=music',
      'tag=used',
      'city=Lyon',
      'country=FR',
      'currency=EUR',
    ]);
  });

  it('refuses unknown names, empty or malformed values and two values of a one-value filter', () => {
    for (const bad of [
      ['status=active'],
      ['category'],
      ['=books'],
      ['category='],
      ['category=Books!'],
      ['country=FRA'],
      ['currency=E'],
      ['country=FR', 'country=DE'],
    ]) {
      expect(() => parseFixedFilters(bad), bad.join(' ')).toThrow();
    }
    expect(parseFixedFilters(['country=FR', 'country=fr'])).toEqual({ country: 'FR' });
  });

  it('takes attr.NAME=V of declared attributes (issue 23), any of several values', () => {
    const filters = parseFixedFilters(['attr.brand=Acme', 'attr.brand=Zorg Co', 'attr.used=true']);
    expect(filters).toEqual({ attributes: { brand: ['Acme', 'Zorg Co'], used: ['true'] } });
    expect(describeFixedFilters(filters)).toEqual([
      'attr.brand=Acme',
      'attr.brand=Zorg Co',
      'attr.used=true',
    ]);
    expect(() => parseFixedFilters(['attr.9x=1'])).toThrow(/attr\.NAME/);
  });
});
