import { UsageError } from '../platform/usage-error.js';

/**
 * What a publishable key carries besides its secret (SPEC §3, issue 16): the browser origins
 * allowed to use it and the filters fixed on every search it makes.
 */

/** Filters a publishable key may fix. Repeatable ones narrow by set; the others are one value. */
export interface FixedFilters {
  category?: string[];
  tag?: string[];
  city?: string;
  country?: string;
  currency?: string;
  /** `attr.NAME=V` (issue 23): any of the values of a declared attribute, as a search would give them. */
  attributes?: Record<string, string[]>;
}

/** `attr.NAME` of a fixed filter (the attribute must be declared when the key searches). */
const FIXED_ATTRIBUTE = /^attr\.([a-zA-Z][a-zA-Z0-9_]{0,39})$/;

export const FIXED_FILTER_NAMES = ['category', 'tag', 'city', 'country', 'currency'] as const;
type FixedFilterName = (typeof FIXED_FILTER_NAMES)[number];

const SLUG = /^[a-z0-9][a-z0-9-]{0,49}$/;
const LOCALHOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** At most this many origins per key: a key for a handful of sites, not a wildcard by listing. */
export const MAX_ORIGINS = 20;

/**
 * One allowed origin, exact `scheme://host[:port]` (SPEC §3): https, or http on localhost for
 * development. Returned in the form browsers send in `Origin` (lower-case host, no default
 * port), so matching is a string comparison. A path, query, wildcard or userinfo is refused.
 */
export function parseAllowedOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`origin ${JSON.stringify(value)} is not a URL (write it as https://shop.example)`);
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || value.includes('*')) {
    throw new UsageError(
      `origin ${JSON.stringify(value)} must be exactly scheme://host[:port], without path, query or wildcard`,
    );
  }
  if (url.protocol === 'https:') return url.origin;
  if (url.protocol === 'http:' && LOCALHOSTS.has(url.hostname)) return url.origin;
  throw new UsageError(`origin ${JSON.stringify(value)} must use https (http only on localhost)`);
}

export function parseAllowedOrigins(values: readonly string[]): string[] {
  const origins = [...new Set(values.map(parseAllowedOrigin))];
  if (origins.length === 0) throw new UsageError('a publishable key needs at least one allowed origin');
  if (origins.length > MAX_ORIGINS) throw new UsageError(`a key allows at most ${MAX_ORIGINS} origins`);
  return origins;
}

/** `name=value` pairs (`--filter category=books --filter country=FR`) into fixed filters. */
export function parseFixedFilters(pairs: readonly string[]): FixedFilters {
  const filters: FixedFilters = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at) as FixedFilterName;
    const value = pair.slice(at + 1).trim();
    const attribute = FIXED_ATTRIBUTE.exec(name)?.[1];
    if (attribute !== undefined && value !== '' && value.length <= 200) {
      const attributes = filters.attributes ?? {};
      const list = attributes[attribute] ?? [];
      if (!list.includes(value)) list.push(value);
      attributes[attribute] = list;
      filters.attributes = attributes;
      continue;
    }
    if (at < 1 || !FIXED_FILTER_NAMES.includes(name)) {
      throw new UsageError(
        `filter ${JSON.stringify(pair)} must be name=value with name among ${FIXED_FILTER_NAMES.join(', ')}, attr.NAME`,
      );
    }
    if (value === '') throw new UsageError(`filter ${name} needs a value`);
    switch (name) {
      case 'category':
      case 'tag': {
        if (!SLUG.test(value))
          throw new UsageError(`filter ${name}=${value}: a lower-case slug (a-z, 0-9, -)`);
        const list = filters[name] ?? [];
        if (!list.includes(value)) list.push(value);
        filters[name] = list;
        break;
      }
      case 'country':
      case 'currency': {
        const pattern = name === 'country' ? /^[A-Za-z]{2}$/ : /^[A-Za-z]{3}$/;
        if (!pattern.test(value)) {
          throw new UsageError(
            `filter ${name}=${value}: ${name === 'country' ? 'ISO 3166-1 alpha-2' : 'ISO 4217'}`,
          );
        }
        setOnce(filters, name, value.toUpperCase());
        break;
      }
      case 'city':
        if (value.length > 100) throw new UsageError('filter city: at most 100 characters');
        setOnce(filters, name, value);
        break;
    }
  }
  return filters;
}

function setOnce(filters: FixedFilters, name: 'city' | 'country' | 'currency', value: string): void {
  if (filters[name] !== undefined && filters[name] !== value) {
    throw new UsageError(`filter ${name} takes one value (an offer has one ${name})`);
  }
  filters[name] = value;
}

/** `name=value` pairs again, for lists, audit entries and the portal. */
export function describeFixedFilters(filters: FixedFilters): string[] {
  const pairs: string[] = [];
  for (const name of FIXED_FILTER_NAMES) {
    const value = filters[name];
    for (const item of value === undefined ? [] : [value].flat()) pairs.push(`${name}=${item}`);
  }
  for (const [name, values] of Object.entries(filters.attributes ?? {}))
    for (const value of values) pairs.push(`attr.${name}=${value}`);
  return pairs;
}
