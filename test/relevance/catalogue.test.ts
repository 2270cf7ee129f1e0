import { describe, expect, it } from 'vitest';
import { JUDGED, type Measured, measureCatalogue } from '../support/catalogue.js';

/**
 * Issue 23: the query shapes of a real catalogue (numbers, units, compound words, possessives,
 * typo widening) measured on the catalogue sample (test/support/catalogue.ts). Each figure is a
 * floor: the engine may do better, never worse. `precision` is the share of the matches that
 * are relevant (what `total` and facets count), `recall` the share of the relevant offers found.
 */
const FLOORS: Record<string, Pick<Measured, 'precisionAt5' | 'recall' | 'precision'>> = {
  '32 gb ': { precisionAt5: 1, recall: 1, precision: 1 },
  '6ft lightning cable ': { precisionAt5: 1, recall: 1, precision: 1 },
  '5.5 inch ': { precisionAt5: 1, recall: 1, precision: 1 },
  'otter box ': { precisionAt5: 1, recall: 1, precision: 1 },
  'tshirt ': { precisionAt5: 1, recall: 1, precision: 1 },
  "men's smartwatch band ": { precisionAt5: 1, recall: 1, precision: 0.83 },
  '55 inch tv ': { precisionAt5: 1, recall: 1, precision: 1 },
  // `Type-C` is another name for `USB-C`: a synonym, not a text rule.
  'usb c cable ': { precisionAt5: 1, recall: 0.82, precision: 1 },
  '1 terabyte ': { precisionAt5: 1, recall: 1, precision: 1 },
  "o'neill ": { precisionAt5: 1, recall: 1, precision: 1 },
  'iphone ': { precisionAt5: 1, recall: 1, precision: 1 },
};

describe('relevance on the catalogue sample', () => {
  const measured = measureCatalogue();

  it('judges every query shape', () => {
    expect(measured.map((m) => m.q)).toEqual(JUDGED.map((j) => j.q));
    for (const m of measured) expect(m.relevantTotal, m.q).toBeGreaterThan(0);
  });

  for (const j of JUDGED) {
    it(`q=${JSON.stringify(j.q)} keeps its precision at 5, recall and precision`, () => {
      const m = measured.find((x) => x.q === j.q) as Measured;
      const floor = FLOORS[j.q];
      expect(floor, 'a floor for every judged query').toBeDefined();
      expect(m.precisionAt5).toBeGreaterThanOrEqual(floor?.precisionAt5 ?? 1);
      expect(m.recall).toBeGreaterThanOrEqual(floor?.recall ?? 1);
      expect(m.precision).toBeGreaterThanOrEqual(floor?.precision ?? 1);
    });
  }
});
