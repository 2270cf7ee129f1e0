/**
 * The search rules the engine and its reference oracle share (docs/search.md, issue 12).
 * Only the numbers and the shape of the sort keys live here; each side implements the rules on
 * its own, so a mistake in one shows up as a difference from the other.
 */

/** Edits a typed word (or the prefix being typed) may be away from an indexed word. */
export function typoBudget(typedLength: number): number {
  if (typedLength >= 9) return 2;
  if (typedLength >= 5) return 1;
  return 0;
}

/** A number as a query word (digits, a decimal): matched as typed, never typo-corrected. */
export function isNumber(word: string): boolean {
  return /^[0-9]+(\.[0-9]+)?$/.test(word);
}

/**
 * Proximity of two consecutive query words: positions apart in one field (one more when they
 * come in the reverse order), at most this; words never in one field together count this much.
 */
export const PROXIMITY_CAP = 8;

/** The orders a search can ask for (the API's `sort`). */
export const SORTS = ['relevance', '-publishedAt', 'publishedAt', 'price', '-price', 'distance'] as const;
export type SortOrder = (typeof SORTS)[number];

export type KeyDirection = 'asc' | 'desc';

/**
 * The sort keys of each order, in comparison order; `nextKeys` and `after` carry one value per
 * key. Relevance: typos, proximity, attribute (0 = the title alone matches, 1 = the description is
 * needed), inexact words, then publishedAt and id. Every order ends in the offer id.
 */
export const ENGINE_SORT_KEYS: Readonly<Record<SortOrder, readonly KeyDirection[]>> = {
  relevance: ['asc', 'asc', 'asc', 'asc', 'desc', 'desc'],
  '-publishedAt': ['desc', 'desc'],
  publishedAt: ['asc', 'asc'],
  price: ['asc', 'asc'],
  '-price': ['desc', 'desc'],
  distance: ['asc', 'asc'],
};

/**
 * The sort keys of any order, `attr.NAME` ones included: (value, id), both one way. With a
 * ranking tie-break, relevance carries the attribute's value (its direction) before publishedAt.
 */
export function sortKeysOf(sort: string, rankBy?: { descending: boolean } | null): readonly KeyDirection[] {
  if (sort === 'relevance' && rankBy) {
    const [typos, proximity, attribute, inexact, ...rest] = ENGINE_SORT_KEYS.relevance;
    return [
      typos,
      proximity,
      attribute,
      inexact,
      rankBy.descending ? 'desc' : 'asc',
      ...rest,
    ] as KeyDirection[];
  }
  const keys = (ENGINE_SORT_KEYS as Readonly<Record<string, readonly KeyDirection[]>>)[sort];
  if (keys) return keys;
  return sort.startsWith('-') ? ['desc', 'desc'] : ['asc', 'asc'];
}

/** `attr.NAME` / `-attr.NAME`: the attribute and the direction; null for a built-in order. */
export function attributeSort(sort: string): { name: string; descending: boolean } | null {
  const descending = sort.startsWith('-');
  const bare = descending ? sort.slice(1) : sort;
  return bare.startsWith('attr.') ? { name: bare.slice(5), descending } : null;
}

/** `attr.NAME:desc` / `attr.NAME:asc` (the stored `--rank-by`), null when it is not that shape. */
export function parseRankBy(text: string): { name: string; descending: boolean } | null {
  const m = /^attr\.([a-zA-Z][a-zA-Z0-9_]{0,39}):(asc|desc)$/.exec(text);
  return m ? { name: m[1] as string, descending: m[2] === 'desc' } : null;
}

/** The stored, typed shape of a tie-break: `attr.NAME:desc` / `attr.NAME:asc`. */
export function formatRankBy(rankBy: { name: string; descending: boolean }): string {
  return `attr.${rankBy.name}:${rankBy.descending ? 'desc' : 'asc'}`;
}
