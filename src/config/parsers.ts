import { isIP } from 'node:net';

/**
 * Small, strict parsers for environment values. Each returns the parsed value or throws a
 * `TypeError` whose message is shown to the operator next to the variable's name.
 */

export function parseInteger(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw)) throw new TypeError(`must be a whole number between ${min} and ${max}`);
    const value = Number(raw);
    if (value < min || value > max) throw new TypeError(`must be between ${min} and ${max}`);
    return value;
  };
}

export function parseEnum<const T extends string>(values: readonly T[]) {
  return (raw: string): T => {
    const found = values.find((v) => v === raw);
    if (found === undefined) throw new TypeError(`must be one of ${values.join(', ')}`);
    return found;
  };
}

export function parseBoolean(raw: string): boolean {
  if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'off', 'no'].includes(raw)) return false;
  throw new TypeError('must be true or false');
}

/** An origin (`scheme://host[:port]`) with no path, query or fragment: base of `{base_url}` and `{auth_url}`. */
export function parseOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError('must be an absolute http(s) origin such as https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('must use http or https');
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new TypeError('must be an origin only (no path, query, fragment or credentials)');
  }
  return url.origin;
}

export function parseUrlWithScheme(schemes: readonly string[]) {
  return (raw: string): string => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new TypeError(`must be a URL starting with ${schemes.map((s) => `${s}//`).join(' or ')}`);
    }
    if (!schemes.includes(url.protocol)) {
      throw new TypeError(`must be a URL starting with ${schemes.map((s) => `${s}//`).join(' or ')}`);
    }
    return raw;
  };
}

export function parseString(raw: string): string {
  if (raw.trim() === '') throw new TypeError('must not be empty');
  return raw;
}

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration such as `90s`, `15m`, `10h` or `30d`, in milliseconds, within [min, max] ms. */
export function parseDuration(min: number, max: number) {
  return (raw: string): number => {
    const match = /^(\d{1,7})(s|m|h|d)$/.exec(raw);
    if (!match) throw new TypeError('must be a whole number followed by s, m, h or d (for example 10h)');
    const ms = Number(match[1]) * (DURATION_UNITS[match[2] as string] as number);
    if (ms < min || ms > max) {
      throw new TypeError(`must be between ${formatDuration(min)} and ${formatDuration(max)}`);
    }
    return ms;
  };
}

/** A comma-separated list of 1 to `maxItems` durations (`5s,30s,2m`), each within min..max. */
export function parseDurationList(min: number, max: number, maxItems: number) {
  const one = parseDuration(min, max);
  return (raw: string): number[] => {
    const items = raw.split(',').map((s) => s.trim());
    if (items.length > maxItems) throw new TypeError(`must list at most ${maxItems} durations`);
    return items.map((item) => one(item));
  };
}

export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}

/** A comma-separated subset of `values` (may be empty: `none`). */
export function parseSubset<const T extends string>(values: readonly T[]) {
  return (raw: string): T[] => {
    if (raw === 'none') return [];
    const items = raw.split(',').map((s) => s.trim());
    const bad = items.filter((item) => !values.includes(item as T));
    if (bad.length > 0) throw new TypeError(`must be none or a comma-separated list of ${values.join(', ')}`);
    return [...new Set(items as T[])];
  };
}

/** A secret of at least 32 bytes, given as base64 or base64url (e.g. `openssl rand -base64 32`). */
export function parseSecret(raw: string): Buffer {
  const trimmed = raw.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed))
    throw new TypeError('must be base64 (openssl rand -base64 32)');
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length < 32) throw new TypeError('must decode to at least 32 bytes (openssl rand -base64 32)');
  return bytes;
}

/** A deprecation of one API version: when it was deprecated and when it goes away. */
export interface VersionDeprecation {
  /** Epoch ms. */
  deprecatedAt: number;
  /** Epoch ms. */
  sunsetAt: number;
}

/** `v1=2027-01-01T00:00:00Z/2027-07-01T00:00:00Z,v2=…` → one entry per version. */
export function parseDeprecations(raw: string): Readonly<Record<string, VersionDeprecation>> {
  const out: Record<string, VersionDeprecation> = {};
  for (const item of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^(v\d+)=([^/]+)\/(.+)$/.exec(item);
    const deprecatedAt = match ? Date.parse(match[2] ?? '') : Number.NaN;
    const sunsetAt = match ? Date.parse(match[3] ?? '') : Number.NaN;
    if (!match || Number.isNaN(deprecatedAt) || Number.isNaN(sunsetAt)) {
      throw new TypeError('must be version=deprecation-date/sunset-date[,…], e.g. v1=2027-01-01/2027-07-01');
    }
    if (sunsetAt < deprecatedAt)
      throw new TypeError(`${match[1]}: the sunset date precedes the deprecation date`);
    out[match[1] as string] = { deprecatedAt, sunsetAt };
  }
  return Object.freeze(out);
}

/** Names proxy-addr (Fastify's `trustProxy`) understands for whole address ranges. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY` (issue 13): `false` (default), or the addresses and CIDRs of the proxies in
 * front (`10.0.0.0/8,127.0.0.1`, or the names `loopback`, `linklocal`, `uniquelocal`).
 * `X-Forwarded-For` is believed only from those addresses. `true` (trust every hop) is refused:
 * with no proxy in front any client could pick its own address and step round the per-address
 * bad-key budget and login throttle.
 */
export function parseTrustProxy(raw: string): false | string[] {
  const value = raw.trim();
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  if (['1', 'true', 'on', 'yes'].includes(value)) {
    throw new TypeError(
      "must list the proxies' addresses or CIDRs (e.g. 10.0.0.0/8 or loopback), not true: trusting every hop lets any client choose its own address",
    );
  }
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const bad = items.filter((item) => !PROXY_RANGES.includes(item) && !isAddressOrCidr(item));
  if (items.length === 0 || bad.length > 0) {
    throw new TypeError(
      'must be false or a comma-separated list of IP addresses, CIDRs, loopback, linklocal, uniquelocal',
    );
  }
  return [...new Set(items)];
}

function isAddressOrCidr(item: string): boolean {
  const [address = '', prefix, ...rest] = item.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}
