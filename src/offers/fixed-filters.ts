import type { ParameterError } from '../http/errors.js';
import type { FixedFilters } from '../keys/publishable.js';
import { foldString } from '../search/attributes/values.js';
import type { Offer, SearchQuery } from './schemas.js';

/**
 * A publishable key's fixed filters (SPEC §3, issue 16) applied to one search: the result is
 * the request's query narrowed to the key's filters, never wider. A request may narrow further
 * (a subset of the key's categories, more tags, the same city); asking for a value outside the
 * key's filters is a `400 invalid_parameter` naming the parameter, rather than a silently empty
 * or silently rewritten result.
 *
 * Applied before the offer service sees the query, so the search engine (SQL today, in memory
 * with issue 12), the cursor fingerprint and `POST /multi-search` (with `prefix` =
 * `queries[i].`) all see the narrowed query.
 */
export type Narrowed<Q> = { ok: true; query: Q } | { ok: false; errors: ParameterError[] };

type FilterFields = Pick<SearchQuery, 'category' | 'tag' | 'city' | 'country' | 'currency'> & {
  [attribute: `attr.${string}`]: unknown;
};

export function applyFixedFilters<Q extends FilterFields>(
  query: Q,
  filters: FixedFilters,
  prefix = '',
): Narrowed<Q> {
  const errors: ParameterError[] = [];
  const narrowed: Q = { ...query };
  if (filters.category) {
    const allowed = filters.category;
    const outside = (query.category ?? []).filter((c) => !allowed.includes(c));
    if (outside.length > 0) {
      errors.push({
        parameter: `${prefix}category`,
        message: `this key searches only category ${allowed.join(', ')}`,
      });
    } else if (!query.category || query.category.length === 0) {
      narrowed.category = [...allowed];
    }
  }
  // Tags must all match: adding the key's tags only narrows.
  if (filters.tag) narrowed.tag = [...new Set([...(query.tag ?? []), ...filters.tag])];
  for (const name of ['city', 'country', 'currency'] as const) {
    const fixed = filters[name];
    if (fixed === undefined) continue;
    const asked = query[name];
    const same = name === 'city' ? asked === fixed : asked?.toUpperCase() === fixed.toUpperCase();
    if (asked === undefined) narrowed[name] = fixed;
    else if (!same)
      errors.push({ parameter: `${prefix}${name}`, message: `this key searches only ${name} ${fixed}` });
  }
  // A declared attribute's values: a request may ask for a subset of them (compared as written;
  // the engine folds both alike), else it gets all of them.
  for (const [name, allowed] of Object.entries(filters.attributes ?? {})) {
    const key = `attr.${name}` as const;
    const asked = [(narrowed as Record<string, unknown>)[key] ?? []].flat().map(String);
    const outside = asked.filter((v) => !allowed.some((a) => fold(a) === fold(v)));
    if (outside.length > 0)
      errors.push({
        parameter: `${prefix}${key}`,
        message: `this key searches only ${key} ${allowed.join(', ')}`,
      });
    else if (asked.length === 0) (narrowed as Record<string, unknown>)[key] = [...allowed];
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, query: narrowed };
}

const fold = (value: string) => foldString(value);

/** Whether one offer lies within the key's filters (`GET /offers/{id}` with a publishable key). */
export function offerWithinFixedFilters(offer: Offer, filters: FixedFilters): boolean {
  if (filters.category && !filters.category.includes(offer.category)) return false;
  if (filters.tag && !filters.tag.every((t) => offer.tags.includes(t))) return false;
  if (filters.city !== undefined && offer.location.city !== filters.city) return false;
  if (filters.country !== undefined && offer.location.country !== filters.country) return false;
  if (filters.currency !== undefined && offer.price.currency !== filters.currency) return false;
  for (const [name, allowed] of Object.entries(filters.attributes ?? {})) {
    const value = offer.attributes[name];
    if (value === undefined || !allowed.some((a) => fold(a) === fold(String(value)))) return false;
  }
  return true;
}
