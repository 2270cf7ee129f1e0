import { rankTie } from '../attributes/rank-tie.js';
import type { IndexView } from '../index-view.js';
import { type Position, selectPage } from '../order/top-k.js';
import { packRank, unpackRank } from '../query/cursor-keys.js';
import { stemsSet, type UnitSets } from '../query/match-set.js';
import type { Plan, Unit } from '../query/plan.js';
import { PROXIMITY_CAP } from '../rules.js';
import { and, andNot, type Bits, membersOf, scratch, unionOf } from '../sets/slot-sets.js';
import { leastProximity } from './adjacent-pairs.js';
import { membership } from './dense-members.js';
import type { ProximityLayers } from './proximity-layers.js';
import { type BucketPage, bucketPage, type ClassPager, type Part, scanPage } from './rank-buckets.js';
import { SEQUENCE_START, scanRank } from './scan-rank.js';
import { touchText } from './text-touch.js';
import { tiePager, walkByTie } from './tie-break.js';

/**
 * Relevance (ADR 0014, ADR 0019): a page of the matches of `q` in the relevance order, and the
 * tuple of one offer read from its words (packed as cursor-keys.ts packs it).
 */

/**
 * The first `k` matches after the cursor by relevance: by rank buckets for one unit and no
 * phrase (rank-buckets.ts bucketPage), else ranking from the words (scanPage).
 */
/** The index as ranking reads it: the view, and the newest-first pager of each relevance class. */
export interface RankedIndex extends IndexView {
  readonly pager: ClassPager;
  /** The proximity of frequent stem pairs, kept as it is read (ADR 0040). */
  readonly proximity: ProximityLayers;
}

export function relevancePage(
  ix: RankedIndex,
  plan: Plan,
  units: UnitSets[],
  bits: Bits,
  after: Position | null,
  k: number,
): BucketPage {
  const unit = units[0];
  const tie = rankTie(ix.attributes);
  if (unit !== undefined && units.length === 1 && plan.phrases.length === 0 && !plan.hasSequences) {
    const exact = exactSet(ix, plan.units[0] as Unit, unit);
    const title = stemsSet(ix, plan.unitsOfStem.keys(), 'title');
    const attribute = ix.searchable.length === 0 ? null : stemsSet(ix, plan.unitsOfStem.keys(), 'attribute');
    const pager = tie === null ? ix.pager : tiePager(ix, tie);
    return bucketPage(bits, unit, title, attribute, exact, after, k, pager, (t, a, e) =>
      packRank(t, 0, a, e),
    );
  }
  // Read per word of the text: one lookup, not the word's stem and then the stem's bits.
  const wordBits = ix.wordBits;
  const stemWords = ix.dict.stemWords;
  for (const [s, b] of plan.unitsOfStem) for (const w of stemWords[s] as number[]) wordBits[w] = b;
  // Where a sequence may start (its first stem), marked: scanRank reads sequences only there.
  const starts = sequenceStarts(plan);
  for (const s of starts)
    for (const w of stemWords[s] as number[]) wordBits[w] = (wordBits[w] as number) | SEQUENCE_START;
  const pairs = plan.hasSequences
    ? Math.max(0, plan.units.length - 1)
    : leastProximity(ix, ix.proximity.adjacent, plan);
  const floor = rankFloor(ix, plan, units);
  // Proximity parts are of one rank only where the title rule is the units' alone (no phrase).
  const layered = plan.units.length > 1 && !plan.hasSequences && plan.phrases.length === 0;
  const from = ix.tuning.proximityPartFrom;
  let reading: { cost: number; needs: number; least: number } | undefined;
  // Each unit pair's proximity over every match, read once per query (its parts then cut from it).
  let byPair: Bits[][] | undefined;
  const cut = (members: Bits, partFloor: number) => {
    byPair ??= pairLayers(ix, plan, bits);
    return proximityParts(byPair, members, partFloor);
  };
  const page = scanPage(bits, units, after, k, {
    rankOf: (slot) => scanRank(ix, slot, plan),
    floor: (typos, members) => floor.of(typos, pairs, members),
    split: (members, typos) => {
      const parts = floor.split(members, typos, pairs);
      // Cut by proximity at once when every frequent pair is kept already (else on a walk's
      // failure): read whole, or, part by part, read for each of its members (ADR 0048).
      if (!layered || members.size < from) return parts;
      if (layersReady(ix, plan))
        return parts.flatMap((part) => (part.members.size < from ? [part] : cut(part.members, part.floor)));
      if (!layersKept(ix, plan)) return parts;
      return parts.flatMap((part) =>
        part.members.size < from || !layersCover(ix, plan, part.members)
          ? [part]
          : proximityParts(pairLayers(ix, plan, part.members, false), part.members, part.floor),
      );
    },
    refine: (members, partFloor, early = false) => {
      if (!layered || members.size < from) return undefined;
      // Asked once per query: the pairs not read whole yet are read whole when that reads no
      // more offers than the part holds (ADR 0043, 0048); early (the walk still hoping), only
      // pairs needed by an earlier query.
      reading ??= ix.proximity.need(ix, stemPairs(plan), bits.size);
      const times = early ? reading.needs - 1 : reading.needs;
      const worth = reading.cost === 0 || (times > 0 && reading.cost <= members.size);
      if (worth) return cut(members, partFloor);
      // Else, with one pair of units left to read, the part's own members are read rather than
      // ranked (one pair read a member costs less than its ranking), kept for the next need
      // (ADR 0048); with more, reading costs more than ranking: ranked, unless every pair left
      // was needed before (the query asked again, most likely): read then, once. Early (a long
      // walk still hoping): only then, and one pair of units left.
      const again = reading.least >= 2;
      const more = unreadUnitPairs(ix, plan) > 1;
      if (early ? !again || more : !again && more) return undefined;
      return proximityParts(pairLayers(ix, plan, members, false), members, partFloor);
    },
    typosOf: (rank) => unpackRank(rank)[0] as number,
    published: ix.publishedAt.data,
    ...(tie === null ? {} : { tie }),
    ids: ix.ids,
    size: ix.ids.length,
    walkCost: ix.tuning.rankWalkCost,
    walkShort: ix.tuning.rankWalkShort,
    walkNewest: (members, visit, maxSteps) =>
      tie !== null
        ? walkByTie(membersOf(members, ix.matchBuffer).slice(), tie, ix.publishedAt.data, ix.ids, visit)
        : walkDense(ix, members, visit, maxSteps),
    members: (set) => membersOf(set, ix.matchBuffer),
    touch: (slots, from, to) => touchText(ix, slots, from, to),
    // A part of one rank is paged as a class is: by the tie-break, if any, then newest.
    pager: tie === null ? ix.pager : tiePager(ix, tie),
  });
  for (const s of plan.unitsOfStem.keys()) for (const w of stemWords[s] as number[]) wordBits[w] = 0;
  for (const s of starts) for (const w of stemWords[s] as number[]) wordBits[w] = 0;
  return page;
}

/** Tests by the bitmap's own call before a walk's members are copied into a dense bitset. */
const DENSE_FROM = 256;

/** The members newest first until `visit` says stop (true), or false past `maxSteps` slots read. */
function walkDense(
  ix: RankedIndex,
  members: Bits,
  visit: (slot: number) => boolean,
  maxSteps: number,
): boolean {
  const m = membership(members, ix.ids.length, ix.matchBuffer, DENSE_FROM);
  try {
    return (
      ix.byPublished.walk(ix.ids.length, true, null, (slot) => m.test(slot) && visit(slot), 1, maxSteps) !==
      null
    );
  } finally {
    m.done();
  }
}

/**
 * The least rank members of a typo class can have, from bitmaps (`of`): proximity at its least
 * (each pair adjacent), the title holding every unit unless no member's does (then the title or
 * the searchable attributes, ADR 0042), and a unit exact unless no member holds its typed word
 * (never, for a word no offer has: a typo, a prefix being typed). `split` cuts a class into parts
 * alike in those two rules (the attribute rule's value; how many typed words lacking), each with
 * its exact floor in them (ADR 0035): a walk is then left only proximity to find, and stops at
 * the first members with the words adjacent.
 */
function rankFloor(ix: IndexView, plan: Plan, units: readonly UnitSets[]) {
  // Offers with every unit in the title (null: no unit), then in the title or the attributes
  // (null also without searchable attributes), built on first use.
  let sides: [Bits | null, Bits | null] | undefined;
  const every = (sets: (u: Unit, i: number) => Bits) =>
    plan.units.map(sets).reduce((all: Bits | null, set) => (all === null ? set : all.andInPlace(set)), null);
  const fieldSets = () => {
    sides ??= [
      every((u, i) => {
        const title = stemsSet(ix, u.costs.keys(), 'title');
        const sequences = units[i]?.sequenceTitle;
        return sequences ? title.orInPlace(sequences) : title;
      }),
      ix.searchable.length === 0
        ? null
        : every((u, i) => {
            const head = stemsSet(ix, u.costs.keys(), 'title').orInPlace(
              stemsSet(ix, u.costs.keys(), 'attribute'),
            );
            for (const set of [units[i]?.sequenceTitle, units[i]?.sequenceAttribute])
              if (set) head.orInPlace(set);
            return head;
          }),
    ];
    return sides;
  };
  const exact = plan.units.map((u, i) => exactSet(ix, u, units[i] as UnitSets));
  return {
    of(typos: number, pairs: number, members: Bits): number {
      const [title, head] = fieldSets();
      let inexact = 0;
      for (const set of exact) if (set === null || !members.intersects(set)) inexact += 1;
      const attribute =
        title === null || members.intersects(title) ? 0 : head !== null && members.intersects(head) ? 1 : 2;
      return packRank(typos, pairs, attribute, inexact);
    },
    split(members: Bits, typos: number, pairs: number): Part[] {
      const [title, head] = fieldSets();
      const parts: Part[] = [];
      const push = (side: Bits, attribute: number) => {
        inexactParts(side, exact).forEach((part, inexact) => {
          if (part !== undefined && part.size > 0)
            parts.push({ members: part, floor: packRank(typos, pairs, attribute, inexact) });
        });
      };
      if (title === null) push(members, 0);
      else if (head === null) {
        push(and(members, title), 0);
        push(andNot(members, title), 2);
      } else {
        const rest = andNot(members, title);
        push(and(members, title), 0);
        push(and(rest, head), 1);
        push(andNot(rest, head), 2);
      }
      return parts;
    },
  };
}

/** The first stem of each unit's sequences (none without sequences). */
function sequenceStarts(plan: Plan): Set<number> {
  const starts = new Set<number>();
  if (plan.hasSequences)
    for (const unit of plan.units)
      for (const sequence of unit.sequences) starts.add(sequence.stems[0] as number);
  return starts;
}

/** The stem pairs of adjacent units, in the order typed. */
function stemPairs(plan: Plan): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let u = 0; u + 1 < plan.units.length; u += 1)
    for (const a of (plan.units[u] as Unit).costs.keys())
      for (const b of (plan.units[u + 1] as Unit).costs.keys()) pairs.push([a, b]);
  return pairs;
}

/** True when the proximity of every frequent stem pair of adjacent units is kept and current. */
function layersReady(ix: RankedIndex, plan: Plan): boolean {
  return unreadUnitPairs(ix, plan, 0) === 0;
}

/** True when every frequent stem pair of adjacent units has an entry (read whole or in part). */
function layersKept(ix: RankedIndex, plan: Plan): boolean {
  for (let u = 0; u + 1 < plan.units.length; u += 1)
    for (const a of (plan.units[u] as Unit).costs.keys())
      for (const b of (plan.units[u + 1] as Unit).costs.keys())
        if (!ix.proximity.kept(ix, a, b)) return false;
  return true;
}

/** True when every frequent stem pair of adjacent units is known for every offer of `members`. */
function layersCover(ix: RankedIndex, plan: Plan, members: Bits): boolean {
  for (let u = 0; u + 1 < plan.units.length; u += 1)
    for (const a of (plan.units[u] as Unit).costs.keys())
      for (const b of (plan.units[u + 1] as Unit).costs.keys())
        if (!ix.proximity.covers(ix, a, b, members)) return false;
  return true;
}

/** The pairs of adjacent units with a frequent stem pair not kept whole (counted up to `past` + 1). */
function unreadUnitPairs(ix: RankedIndex, plan: Plan, past = 1): number {
  let unread = 0;
  for (let u = 0; u + 1 < plan.units.length && unread <= past; u += 1) {
    const next = (plan.units[u + 1] as Unit).costs;
    let ready = true;
    for (const a of (plan.units[u] as Unit).costs.keys()) {
      for (const b of next.keys())
        if (!ix.proximity.ready(ix, a, b)) {
          ready = false;
          break;
        }
      if (!ready) break;
    }
    if (!ready) unread += 1;
  }
  return unread;
}

/**
 * Each pair of adjacent units' proximity among `members` (ADR 0040), by value (index d - 1:
 * proximity d; the last, the cap): the least of its stem pairs', read from the kept layers
 * (proximity-layers.ts; rare pairs from the text). `whole`: frequent pairs read for every
 * offer; else for `members` only (ADR 0048).
 */
function pairLayers(ix: RankedIndex, plan: Plan, members: Bits, whole = true): Bits[][] {
  const byPair: Bits[][] = [];
  for (let u = 0; u + 1 < plan.units.length; u += 1) {
    const found = Array.from({ length: PROXIMITY_CAP - 1 }, () => scratch());
    for (const a of (plan.units[u] as Unit).costs.keys())
      for (const b of (plan.units[u + 1] as Unit).costs.keys())
        ix.proximity.orInto(ix, a, b, members, found, whole);
    // found[d - 1]: some stem pair d apart; the pair's proximity is the least such d.
    const seen = scratch();
    const layers: Bits[] = [];
    for (const set of found) {
      layers.push(andNot(set, seen));
      seen.orInPlace(set);
    }
    layers.push(andNot(members, seen));
    byPair.push(layers);
  }
  return byPair;
}

/**
 * A part (members alike in every rule but proximity, at least at `floor`) cut into parts of one
 * rank each: the nonempty combinations of one proximity per unit pair (`byPair`, pairLayers
 * over a superset of the part).
 */
function proximityParts(byPair: Bits[][], members: Bits, floor: number): Part[] {
  const [typos, , attribute, inexact] = unpackRank(floor) as [number, number, number, number];
  const parts: Part[] = [];
  const cut = (pair: number, set: Bits, proximity: number) => {
    if (pair === byPair.length) {
      parts.push({ members: set, floor: packRank(typos, proximity, attribute, inexact), exact: true });
      return;
    }
    (byPair[pair] as Bits[]).forEach((layer, d) => {
      if (layer.size === 0) return;
      const within = and(set, layer);
      if (within.size > 0) cut(pair + 1, within, proximity + d + 1);
    });
  };
  cut(0, members, 0);
  return parts;
}

/**
 * `members` by how many units' typed words they lack (index: that count), from the offers
 * holding each unit's typed word (null: none does).
 */
function inexactParts(members: Bits, exact: ReadonlyArray<Bits | null>): Array<Bits | undefined> {
  let parts: Array<Bits | undefined> = [members];
  for (const set of exact) {
    const next: Array<Bits | undefined> = [];
    const put = (at: number, bits: Bits) => {
      if (bits.size === 0) return;
      const known = next[at];
      if (known === undefined) next[at] = bits;
      else known.orInPlace(bits);
    };
    parts.forEach((part, missing) => {
      if (part === undefined) return;
      if (set === null) put(missing + 1, part);
      else {
        put(missing, and(part, set));
        put(missing + 1, andNot(part, set));
      }
    });
    parts = next;
  }
  return parts;
}

/**
 * The offers holding the unit's typed word itself or a word counting as it (a synonym), or an
 * exact sequence (exactness); null when none does.
 */
function exactSet(ix: IndexView, unit: Unit, sets: UnitSets): Bits | null {
  const parts: Bits[] = [];
  for (const w of [unit.wordId, ...unit.exactWords])
    if (w >= 0 && (ix.dict.wordDocs.data[w] as number) > 0) parts.push(ix.sets.word.get(w));
  if (sets.sequenceExact !== null && sets.sequenceExact.size > 0) parts.push(sets.sequenceExact);
  if (parts.length === 0) return null;
  return parts.length === 1 ? (parts[0] as Bits) : unionOf(parts);
}

/** Within a relevance class: the newest members, by walking the newest-first order or by selection. */
export function newestPager(ix: IndexView): ClassPager {
  return {
    newest: (members, from, k) => {
      const size = ix.ids.length;
      const n = members.size;
      const expected = (k * size) / n;
      if (expected * ix.tuning.walkCost <= n) {
        const walked = ix.byPublished.walk(
          size,
          true,
          from,
          (slot) => members.has(slot),
          k,
          4 * expected + 64,
        );
        if (walked !== null) return walked;
      }
      const slots = membersOf(members, ix.matchBuffer);
      const published = ix.publishedAt.data;
      const primary = ix.primaries(slots.length);
      for (let i = 0; i < slots.length; i += 1) primary[i] = published[slots[i] as number] as number;
      const rows = { slots, primary, published, ids: ix.ids };
      const position = from ? { primary: from.value, published: 0, id: from.id } : null;
      const order = { primaryDescending: true, relevance: false };
      return selectPage(rows, slots.length, order, position, k).page.map((i) => slots[i] as number);
    },
  };
}
