import { attributeFacet } from '../attributes/read.js';
import { foldString } from '../attributes/values.js';
import type { EngineQuery, FacetCount, FacetName } from '../engine.js';
import { allFacetValues } from '../facets/facets.js';
import { matchSet, unitSets } from '../query/match-set.js';
import { planText } from '../query/plan.js';
import { membersOf } from '../sets/slot-sets.js';
import type { AnswerIndex } from './answer.js';

/**
 * Facet-value search (ADR 0037): every value of one facet counted over the whole match set of a
 * query, exactly as its facets are counted (facets.ts, attributes/read.ts) but without the top
 * cut, then the values starting with the prefix (both folded like text), most frequent first
 * (ties by value), the first `limit`. A query that `auto` narrowed to nothing is answered with
 * typo variants for every word, as a search is.
 */
export function facetValuesOf(
  ix: AnswerIndex,
  query: EngineQuery,
  facet: FacetName | `attr.${string}`,
  prefix: string,
  limit: number,
): FacetCount[] {
  const plan = query.text ? planText(ix.dict, query.text, query.typoTolerance, query.synonyms) : null;
  if (plan === 'nothing') return [];
  ix.growScratch();
  const bits = matchSet(ix, query, plan, plan ? unitSets(ix, plan) : []);
  if (bits.size === 0 && plan?.narrowed === true)
    return facetValuesOf(ix, { ...query, typoTolerance: 'all' }, facet, prefix, limit);
  const values = facet.startsWith('attr.')
    ? attributeFacet(
        ix.attributes,
        facet.slice(5),
        bits,
        () => membersOf(bits, ix.matchBuffer),
        Number.POSITIVE_INFINITY,
      ).counts
    : allFacetValues(ix, bits, facet as FacetName);
  const folded = foldString(prefix);
  const out: FacetCount[] = [];
  for (const v of values) {
    if (out.length >= limit) break;
    if (folded === '' || foldString(v.value).startsWith(folded)) out.push(v);
  }
  return out;
}
