import { rankTie } from '../attributes/rank-tie.js';
import {
  type EngineQuery,
  type EngineResult,
  FACET_NAMES,
  type FacetName,
  type FacetRequest,
} from '../engine.js';
import { extraFacets } from '../facets/attribute-facets.js';
import { emptyFacets, facetsOf } from '../facets/facets.js';
import type { StemFacets } from '../facets/stem-facets.js';
import type { IndexView } from '../index-view.js';
import { type Position, selectPage } from '../order/top-k.js';
import { keysOf, position } from '../query/cursor-keys.js';
import { matchSet, type UnitSets, unitSets } from '../query/match-set.js';
import { type Plan, planText } from '../query/plan.js';
import { nearest, sortValues, walkPage } from '../query/sorted-pages.js';
import { type RankedIndex, relevancePage } from '../rank/relevance.js';
import { type Bits, membersOf } from '../sets/slot-sets.js';
import { distinctPage, type OrderedPage } from './distinct.js';
import { statusOnly } from './status-only.js';

/**
 * How the engine answers a query (ADR 0014, ADR 0019): the status-only path when it applies,
 * else the matches as one bitmap (match-set.ts), their facets (facets.ts) and the page by the
 * cheapest exact way for its sort (sorted-pages.ts, relevance.ts, or a selection among all).
 */

/** The page, total and facets of a query (Index.search releases the scratch bitmaps after). */
/** The index as answering reads it: the view, the ranking's pager, the facet counts kept per frequent stem. */
export interface AnswerIndex extends RankedIndex {
  readonly stemFacets: Pick<StemFacets, 'baseFor'>;
}

export function answer(
  ix: AnswerIndex,
  query: EngineQuery,
  requested: readonly FacetRequest[],
): EngineResult {
  const facetNames = requested.filter((f): f is FacetName => FACET_NAMES.includes(f as FacetName));
  const extra = requested.filter((f) => !FACET_NAMES.includes(f as FacetName));
  const plan = query.text ? planText(ix.dict, query.text, query.typoTolerance, query.synonyms) : null;
  if (plan === 'nothing') {
    const none = { ids: [], total: 0, facets: emptyFacets(requested), nextKeys: null };
    return extra.length > 0 ? { ...none, facetStats: {} } : none;
  }
  ix.growScratch();
  const after = position(ix, query);
  const quick =
    plan === null && extra.length === 0 && !query.distinct ? statusOnly(ix, query, after, facetNames) : null;
  if (quick !== null) return quick;
  const units = plan ? unitSets(ix, plan) : [];
  const bits = matchSet(ix, query, plan, units);
  const count = bits.size;
  // `auto` held back typo variants and nothing matched: every word gets them (docs/search.md).
  if (count === 0 && plan?.narrowed === true)
    return answer(ix, { ...query, typoTolerance: 'all' }, requested);
  const base = facetNames.length > 0 ? ix.stemFacets.baseFor(query, plan, units) : null;
  const facets = facetsOf(ix, bits, facetNames, base);
  const facetStats = extra.length > 0 ? extraFacets(ix, bits, extra, facets) : undefined;
  const page = (slots: readonly number[], more: boolean, primary: (i: number) => number, total = count) => {
    const last = slots.length - 1;
    return finish(ix, plan, {
      ids: slots.map((slot) => ix.ids[slot] as string),
      total,
      facets,
      ...(facetStats ? { facetStats } : {}),
      nextKeys: more && last >= 0 ? keysOf(ix, query, slots[last] as number, primary(last)) : null,
    });
  };
  const pageAfter = (from: Position | null, limit: number, among: Bits = bits) =>
    orderedPage(ix, limit === query.limit ? query : { ...query, limit }, plan, units, among, from);
  if (query.distinct === 'publisher') {
    // Facets above counted every match; the total and the pages count one offer per publisher.
    const kept = distinctPage(ix, query, bits, after, pageAfter);
    return page(kept.slots, kept.more, (i) => kept.primary[i] as number, kept.total);
  }
  const { slots, more, primary } = pageAfter(after, query.limit);
  return page(slots, more, primary);
}

/**
 * The first `query.limit` matches after `after` in the query's order, whether more follow, and
 * each one's primary sort value (the packed rank for relevance): by the cheapest exact way for
 * its sort (sorted-pages.ts, relevance.ts, or a selection among all the matches).
 */
function orderedPage(
  ix: AnswerIndex,
  query: EngineQuery,
  plan: Plan | null,
  units: UnitSets[],
  bits: Bits,
  after: Position | null,
): OrderedPage {
  const sortedPage = walkPage(ix, query, bits, after);
  if (sortedPage !== null) {
    const { slots, more, value } = sortedPage;
    return { slots, more, primary: (i) => value(slots[i] as number) };
  }
  const relevance = query.sort === 'relevance';
  if (relevance && plan !== null) {
    const { slots, ranks } = relevancePage(ix, plan, units, bits, after, query.limit + 1);
    const more = slots.length > query.limit;
    if (more) slots.length = query.limit;
    return { slots, more, primary: (i) => ranks[i] as number };
  }
  let ordered: Int32Array;
  let primary: Float64Array;
  const tie = relevance ? rankTie(ix.attributes) : null;
  if (tie !== null) {
    // Relevance without `q` leaves every match tied: the tie-break, then newest, then id.
    const members = membersOf(bits, ix.matchBuffer);
    const ties = ix.primaries(bits.size);
    for (let i = 0; i < members.length; i += 1) ties[i] = tie(members[i] as number);
    const rows = { slots: members, primary: ties, published: ix.publishedAt.data, ids: ix.ids };
    const from = after ? { ...after, primary: after.tie ?? Number.NEGATIVE_INFINITY } : null;
    const order = { primaryDescending: true, relevance: true };
    const selected = selectPage(rows, members.length, order, from, query.limit);
    return { slots: selected.page.map((i) => members[i] as number), more: selected.more, primary: () => 0 };
  }
  if (relevance) {
    // Relevance without `q` ranks every match equal: newest first, then the greater id, the
    // order of -publishedAt, walked when that is shorter than a pass over every match.
    const from = after ? { primary: after.published, published: 0, id: after.id } : null;
    const walked = walkPage(ix, { ...query, sort: '-publishedAt' }, bits, from);
    if (walked !== null) return { slots: walked.slots, more: walked.more, primary: () => 0 };
  }
  if (query.sort === 'distance' && query.near !== null) {
    ({ slots: ordered, primary } = nearest(ix, query.near, bits, after, query.limit, query.radiusKm));
  } else {
    ordered = membersOf(bits, ix.matchBuffer);
    primary = ix.primaries(bits.size);
    // The scratch holds the previous query's values: every match's rank is the same 0 here.
    if (relevance) primary.fill(0);
    else sortValues(ix, query, ordered, primary);
  }
  const order = {
    primaryDescending: query.sort.startsWith('-'),
    relevance,
  };
  const rows = { slots: ordered, primary, published: ix.publishedAt.data, ids: ix.ids };
  const selected = selectPage(rows, ordered.length, order, after, query.limit);
  return {
    slots: selected.page.map((i) => ordered[i] as number),
    more: selected.more,
    primary: (i) => primary[selected.page[i] as number] as number,
  };
}

/** With `q`: the stems it matched that some offer still holds (for highlighting). */
function finish(ix: IndexView, plan: Plan | null, result: EngineResult): EngineResult {
  if (plan) {
    const stems = new Set(plan.unitsOfStem.keys());
    for (const u of plan.units)
      for (const sequence of u.sequences) for (const s of sequence.stems) stems.add(s);
    const live = [...stems].filter((s) => (ix.dict.stemDocs.data[s] as number) > 0);
    result.matchedStems = live.map((s) => ix.dict.stemText[s] as string).sort();
  }
  return result;
}
