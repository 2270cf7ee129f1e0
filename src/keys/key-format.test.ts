import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, keyHint, parseApiKey } from './key-format.js';

describe('API key format', () => {
  it('generates keys of the documented shape that parse back to their environment', () => {
    const prod = generateApiKey('production');
    const test = generateApiKey('testing');
    expect(prod).toMatch(/^vk_prod_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    expect(test).toMatch(/^vk_test_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    expect(parseApiKey(prod)).toEqual({ ok: true, environment: 'production', kind: 'secret' });
    expect(parseApiKey(test)).toEqual({ ok: true, environment: 'testing', kind: 'secret' });
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateApiKey('testing')));
    expect(keys.size).toBe(2000);
  });

  it('rejects every single-character typo through the checksum', () => {
    const key = generateApiKey('testing');
    const randomStart = 'vk_test_'.length;
    for (let i = randomStart; i < randomStart + 32; i += 1) {
      const original = key[i] as string;
      const replacement = original === 'a' ? 'b' : 'a';
      const typo = key.slice(0, i) + replacement + key.slice(i + 1);
      expect(parseApiKey(typo)).toEqual({ ok: false, reason: 'checksum' });
    }
  });

  it('rejects swapped environment tags, truncation and junk as malformed or bad checksum', () => {
    const key = generateApiKey('production');
    expect(parseApiKey(key.replace('vk_prod_', 'vk_test_'))).toEqual({ ok: false, reason: 'checksum' });
    expect(parseApiKey(key.slice(0, -1))).toEqual({ ok: false, reason: 'malformed' });
    expect(parseApiKey(`${key} `)).toEqual({ ok: false, reason: 'malformed' });
    expect(parseApiKey('')).toEqual({ ok: false, reason: 'malformed' });
    expect(parseApiKey('vk_live_0000')).toEqual({ ok: false, reason: 'malformed' });
  });

  it('hashes to a stable hex digest and hints without revealing the key', () => {
    const key = generateApiKey('testing');
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(keyHint(key)).toMatch(/^vk_test_…[0-9A-Za-z]{4}$/);
    expect(key.includes(keyHint(key).slice(9))).toBe(true);
  });

  it('generates publishable keys `vk_pub_<env>_…` whose kind the checksum protects (issue 16)', () => {
    const pub = generateApiKey('testing', 'publishable');
    expect(pub).toMatch(/^vk_pub_test_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    expect(parseApiKey(pub)).toEqual({ ok: true, environment: 'testing', kind: 'publishable' });
    expect(parseApiKey(generateApiKey('production', 'publishable'))).toMatchObject({
      environment: 'production',
      kind: 'publishable',
    });
    // Dropping or adding the `pub_` tag breaks the checksum: the kind cannot be edited.
    expect(parseApiKey(pub.replace('vk_pub_', 'vk_'))).toEqual({ ok: false, reason: 'checksum' });
    const secret = generateApiKey('testing');
    expect(parseApiKey(secret.replace('vk_', 'vk_pub_'))).toEqual({ ok: false, reason: 'checksum' });
    expect(keyHint(pub)).toMatch(/^vk_pub_test_…[0-9A-Za-z]{4}$/);
    expect(pub.split('_')[3]?.endsWith(keyHint(pub).slice(-4))).toBe(true);
  });
});
