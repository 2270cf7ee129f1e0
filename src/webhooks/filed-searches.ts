import type { Environment } from '../platform/environment.js';
import {
  type AlertCheck,
  type AlertOffer,
  type AlertQuery,
  alertCheck,
  alertQuery,
  KeyCounts,
  queryAnchors,
  type SearchRules,
} from './offer-matching.js';
import type { AlertingSearch } from './percolator-store.js';

/** Offers read to count keys when an environment's searches are first filed (their rarest unit anchors). */
export const SAMPLE = 10_000;
/** Searches filed again per round after the counts drifted. */
const REFILE_PER_ROUND = 2_000;

/** A saved search filed with its query compiled under the environment's rules. */
export interface FiledSearch {
  search: AlertingSearch;
  /** The search's `sinceSeq`, read with `seen` (a check reads this object first: one cache line). */
  sinceSeq: number;
  query: AlertQuery | null;
  /** The query prepared for the exact check (null with `query`). */
  check: AlertCheck | null;
  anchors: { city: string | null; keys: string[] | null };
  /** The last offer (`collect`'s stamp) it was collected for: a search filed under several keys is taken once. */
  seen: number;
}

type Kind = 'w' | 't' | 'c' | 'n';
type Searches = Set<FiledSearch>;

/**
 * Prefixes are shelved by their first `BUCKET` letters, a shorter one by itself: an offer's word
 * looks up its own first 2, 3 and 4 letters, and scans the one bucket of longer prefixes sharing
 * its first 4. The engine's prefixes have two letters or more.
 */
const BUCKET = 4;
const SHORTEST = 2;

/** Saved searches by the value of each kind of key they are filed under, and those filed under none. */
class Shelf {
  readonly keys: Record<Kind, Map<string, Searches>> = {
    w: new Map(),
    t: new Map(),
    c: new Map(),
    n: new Map(),
  };
  /** `p:` keys: bucket (first letters) → prefix → searches. */
  readonly prefixes = new Map<string, Map<string, Searches>>();
  /** Prefixes shorter than `BUCKET` filed (an offer's word looks its first 2 and 3 letters up only when some are). */
  private short = 0;
  /**
   * Per bucket of prefixes of `BUCKET` letters or more, a lower bound of their lengths (the
   * shortest filed; not raised on removal): a shorter word of the offer starts with none of them.
   */
  private readonly shortestIn = new Map<string, number>();
  /** The least of `shortestIn` (not raised on removal): a shorter word of the offer looks up no bucket. */
  private shortest = Number.POSITIVE_INFINITY;
  /** Checked against every offer (of the shelf's city). */
  readonly all: Searches = new Set();

  add(key: string, filed: FiledSearch, add: boolean): void {
    const value = key.slice(2);
    const prefix = key.startsWith('p:');
    if (prefix && value.length < SHORTEST) {
      // Shorter than the engine's prefixes: checked against every offer.
      if (add) this.all.add(filed);
      else this.all.delete(filed);
      return;
    }
    const bucket = value.slice(0, BUCKET);
    const map = prefix
      ? (this.prefixes.get(bucket) ?? new Map<string, Searches>())
      : this.keys[key[0] as Kind];
    if (prefix && add) {
      this.prefixes.set(bucket, map);
      if (value.length >= BUCKET) {
        this.shortestIn.set(bucket, Math.min(this.shortestIn.get(bucket) ?? value.length, value.length));
        this.shortest = Math.min(this.shortest, value.length);
      }
    }
    const set = map.get(value) ?? new Set<FiledSearch>();
    if (add) {
      if (prefix && value.length < BUCKET && set.size === 0) this.short += 1;
      map.set(value, set);
      set.add(filed);
      return;
    }
    set.delete(filed);
    if (set.size === 0 && map.delete(value) && prefix && value.length < BUCKET) this.short -= 1;
    if (prefix && map.size === 0) {
      this.prefixes.delete(bucket);
      this.shortestIn.delete(bucket);
    }
  }

  /**
   * Adds to `out` the searches filed under a key the offer carries (no key string built per
   * offer), each once: those already stamped with `stamp` are left out (an array and a stamp
   * instead of a set: 36 candidates an offer at 100 000 searches).
   */
  collect(offer: AlertOffer, out: FiledSearch[], stamp: number): void {
    const { w, t, c, n } = this.keys;
    const doc = offer.doc;
    const put = (found: Searches | undefined) => {
      if (found !== undefined)
        for (const s of found)
          if (s.seen !== stamp) {
            s.seen = stamp;
            out.push(s);
          }
    };
    put(this.all);
    const prefixes = this.prefixes;
    if (w.size > 0 || prefixes.size > 0)
      for (const key of offer.keys) {
        put(w.get(key));
        // A word shorter than every prefix of `BUCKET` letters or more, and none shorter filed.
        if (prefixes.size === 0 || (this.short === 0 && key.length < this.shortest)) continue;
        for (let k = this.short > 0 ? SHORTEST : BUCKET; k <= BUCKET && k <= key.length; k += 1) {
          const start = key.slice(0, k);
          const bucket = prefixes.get(start);
          if (bucket === undefined) continue;
          if (k < BUCKET) put(bucket.get(start));
          else if (key.length >= (this.shortestIn.get(start) ?? 0))
            for (const [prefix, found] of bucket) if (key.startsWith(prefix)) put(found);
        }
      }
    if (t.size > 0) for (const tag of doc.tags) put(t.get(tag));
    put(c.get(doc.category));
    put(n.get(doc.country));
  }
}

/**
 * An environment's saved searches with alerts, filed for the percolator (percolator.ts): each
 * under the keys of its rarest unit (offer-matching.ts `queryAnchors`, by `counts`), in its
 * city's shelf when it has a city filter. An offer is checked against the searches filed under
 * the keys it carries, on the shelf of its city and the shelf of searches without a city.
 */
export class FiledSearches {
  private readonly anywhere = new Shelf();
  private readonly cities = new Map<string, Shelf>();
  readonly byId = new Map<string, FiledSearch>();
  /** Offers carrying each key: the searches filed now were anchored by these counts at `anchoredAt` offers. */
  readonly counts = new KeyCounts();
  anchoredAt = 0;
  /** The newest search's creation time (the next read starts a little before it). */
  newest = 0;
  /** The searches left to file again after a drift of the counts. */
  private refiling: Iterator<FiledSearch> | null = null;
  /** Stamps the searches collected for one offer (`FiledSearch.seen`). */
  private stamp = 0;

  constructor(
    readonly environment: Environment,
    readonly rules: SearchRules,
  ) {}

  add(search: AlertingSearch): void {
    if (this.byId.has(search.id)) return;
    const query = alertQuery(search.query, this.environment, this.rules);
    const check = query === null ? null : alertCheck(query);
    const filed: FiledSearch = {
      search,
      sinceSeq: search.sinceSeq,
      query,
      check,
      anchors: { city: null, keys: [] },
      seen: 0,
    };
    this.byId.set(search.id, filed);
    this.newest = Math.max(this.newest, search.createdAt);
    filed.anchors = queryAnchors(query, this.counts);
    this.shelve(filed, true);
  }

  remove(id: string): void {
    const filed = this.byId.get(id);
    if (!filed) return;
    this.byId.delete(id);
    this.shelve(filed, false);
  }

  /** The searches an offer is checked against, each once. */
  candidates(offer: AlertOffer): FiledSearch[] {
    const out: FiledSearch[] = [];
    this.stamp += 1;
    this.anywhere.collect(offer, out, this.stamp);
    this.cities.get(offer.doc.city)?.collect(offer, out, this.stamp);
    return out;
  }

  /**
   * Files searches again under their rarest unit by the counts now, once the offers counted have
   * doubled since they were last filed (the words' frequencies may have drifted far): at most
   * `REFILE_PER_ROUND` per call, so a round never stops for all of them at once.
   */
  refileSome(): void {
    if (this.refiling === null) {
      if (this.counts.offers < 2 * Math.max(this.anchoredAt, SAMPLE / 2)) return;
      this.anchoredAt = this.counts.offers;
      this.refiling = [...this.byId.values()].values();
    }
    for (let i = 0; i < REFILE_PER_ROUND; i += 1) {
      const next = this.refiling.next();
      if (next.done) {
        this.refiling = null;
        return;
      }
      const filed = next.value;
      if (!this.byId.has(filed.search.id)) continue; // removed meanwhile
      this.shelve(filed, false);
      filed.anchors = queryAnchors(filed.query, this.counts);
      this.shelve(filed, true);
    }
  }

  private shelve(filed: FiledSearch, add: boolean): void {
    const { city, keys } = filed.anchors;
    let shelf = this.anywhere;
    if (city !== null) {
      shelf = this.cities.get(city) ?? new Shelf();
      if (add) this.cities.set(city, shelf);
    }
    if (keys === null) {
      if (add) shelf.all.add(filed);
      else shelf.all.delete(filed);
      return;
    }
    for (const key of keys) shelf.add(key, filed, add);
  }
}
