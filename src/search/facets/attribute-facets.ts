import { attributeFacet, columnStats } from '../attributes/read.js';
import type { FacetRequest, FacetStats, Facets } from '../engine.js';
import type { IndexView } from '../index-view.js';
import { type Bits, membersOf } from '../sets/slot-sets.js';

/** Price units per currency unit (offers/price.ts `priceToUnits`). */
const PRICE_SCALE = 10_000;

/**
 * The facets beyond the built-in fields: `attr.NAME` (counts into `facets`, stats for numbers)
 * and `price` (stats only, in currency units). Returns the stats of those with any value.
 */
export function extraFacets(
  ix: IndexView,
  bits: Bits,
  names: readonly FacetRequest[],
  facets: Facets,
): Record<string, FacetStats> {
  const out: Record<string, FacetStats> = {};
  let members: Int32Array | null = null;
  const all = () => {
    members ??= membersOf(bits, ix.matchBuffer);
    return members;
  };
  for (const name of names) {
    if (name === 'price') {
      const stats = columnStats(ix.price.data, all(), PRICE_SCALE);
      if (stats) out.price = stats;
      continue;
    }
    if (!name.startsWith('attr.')) continue;
    const key = name as `attr.${string}`;
    const { counts, stats } = attributeFacet(ix.attributes, key.slice(5), bits, all);
    facets[key] = counts;
    if (stats) out[key] = stats;
  }
  return out;
}
