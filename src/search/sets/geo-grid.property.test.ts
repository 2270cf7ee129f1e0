import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engineQuery } from '../../../test/support/engine-query.js';
import { referenceSearch } from '../../../test/support/search-reference.js';
import type { IndexDocument } from '../engine.js';
import { createSearchIndex } from '../index/search-index.js';
import { type BoundingBox, inBox } from './geo.js';
import { GeoGrid } from './geo-grid.js';

/**
 * Map windows from the grid (`GeoGrid.cellsInBox`) against a test of every point: points and
 * window edges on the cells' and fine cells' edges (0.05° and 0.005°), a hair either side of them,
 * at the poles and on both sides of the antimeridian; tiny windows, windows of one edge, windows
 * across the antimeridian and the whole globe.
 */

/** Places where the grid's edges meet the globe's. */
const ANCHORS = [
  { lat: 0, lon: 0 },
  { lat: 48.5, lon: 2.35 },
  { lat: 89.96, lon: 179.96 },
  { lat: -89.97, lon: -179.98 },
  { lat: -33.9, lon: 180 },
];
const NUDGES = [0, 0, 0, 1e-12, -1e-12, 3e-9, -3e-9, 0.0013];

const wrapLon = (lon: number) => (lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon);
const clampLat = (lat: number) => Math.min(90, Math.max(-90, lat));

/** A coordinate near an anchor: a whole number of fine cells away, or nudged off the edge. */
const near = (anchor: number, steps: number) =>
  fc
    .tuple(fc.integer({ min: -steps, max: steps }), fc.constantFrom(...NUDGES))
    .map(([k, nudge]) => Math.round(anchor * 200 + k) / 200 + nudge);

const pointArb = (a: (typeof ANCHORS)[number]) =>
  fc.oneof(
    fc
      .tuple(near(a.lat, 24), near(a.lon, 24))
      .map(([lat, lon]) => ({ lat: clampLat(lat), lon: wrapLon(lon) })),
    fc.record({ lat: fc.constantFrom(90, -90, a.lat), lon: fc.constantFrom(180, -180, a.lon) }),
  );

const boxArb = (a: (typeof ANCHORS)[number]): fc.Arbitrary<BoundingBox> =>
  fc.oneof(
    fc.tuple(near(a.lat, 30), near(a.lat, 30), near(a.lon, 30), near(a.lon, 30)).map(([l1, l2, w, e]) => ({
      minLat: clampLat(Math.min(l1, l2)),
      maxLat: clampLat(Math.max(l1, l2)),
      // In either order: west > east crosses the antimeridian.
      minLon: wrapLon(w),
      maxLon: wrapLon(e),
    })),
    // A tiny window around one point, or a single edge.
    fc
      .tuple(near(a.lat, 20), near(a.lon, 20), fc.constantFrom(0, 1e-9, 1e-6, 0.001))
      .map(([lat, lon, h]) => ({
        minLat: clampLat(lat - h),
        maxLat: clampLat(lat + h),
        minLon: wrapLon(lon - h),
        maxLon: wrapLon(lon + h),
      })),
    fc.constantFrom(
      { minLat: -90, minLon: -180, maxLat: 90, maxLon: 180 },
      { minLat: -90, minLon: 180, maxLat: 90, maxLon: -180 },
      { minLat: 89.95, minLon: 179.95, maxLat: 90, maxLon: -179.95 },
      { minLat: -90, minLon: -180, maxLat: -89.95, maxLon: -179.95 },
      { minLat: 90, minLon: 180, maxLat: 90, maxLon: 180 },
    ),
  );

const caseArb = fc.constantFrom(...ANCHORS).chain((a) =>
  fc.record({
    points: fc.array(pointArb(a), { minLength: 1, maxLength: 120 }),
    box: boxArb(a),
  }),
);

describe('GeoGrid.cellsInBox', () => {
  it('holds in its inside cells only points of the window, and every point of it there or on its border', () => {
    fc.assert(
      fc.property(caseArb, ({ points, box }) => {
        const grid = new GeoGrid();
        for (const [slot, p] of points.entries()) grid.add(slot, p.lat, p.lon);
        const { inside, boundary } = grid.cellsInBox(box);
        const found = new Set<number>();
        for (const bits of inside)
          for (const slot of bits.toArray()) {
            const p = points[slot] as { lat: number; lon: number };
            expect(inBox(box, p.lat, p.lon), `inside cell holds ${p.lat},${p.lon}`).toBe(true);
            found.add(slot);
          }
        for (const bits of boundary)
          for (const slot of bits.toArray()) {
            const p = points[slot] as { lat: number; lon: number };
            if (inBox(box, p.lat, p.lon)) found.add(slot);
          }
        const expected = points.flatMap((p, slot) => (inBox(box, p.lat, p.lon) ? [slot] : []));
        expect([...found].sort((x, y) => x - y)).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('reads a window aligned on cell edges from whole cells, testing only its border', () => {
    const grid = new GeoGrid();
    // One point in the middle of each fine cell of 10 × 10 cells from (10, 20).
    let slot = 0;
    for (let i = 0; i < 100; i += 1)
      for (let j = 0; j < 100; j += 1) grid.add(slot++, 10 + (i + 0.5) * 0.005, 20 + (j + 0.5) * 0.005);
    const { inside, boundary } = grid.cellsInBox({ minLat: 10.1, minLon: 20.1, maxLat: 10.4, maxLon: 20.4 });
    const count = (list: readonly { size: number }[]) => list.reduce((n, b) => n + b.size, 0);
    // Within the 6 × 6 cells, all but the fine cells along the window's edges come whole (a point a
    // hair outside may be filed in the cell on the edge); those and their neighbours outside are tested.
    expect(count(inside)).toBe(58 * 58);
    expect(count(boundary)).toBeLessThanOrEqual(4 * 62 * 2);
  });
});

describe('bbox = reference search, through the grid and by a test per match', () => {
  it.each([{ rangeSliceCost: 0 }, { rangeSliceCost: Number.POSITIVE_INFINITY }])('%o', (tuning) => {
    fc.assert(
      fc.property(caseArb, fc.option(fc.constantFrom('a', 'b')), (c, category) => {
        const index = createSearchIndex(tuning);
        const docs: IndexDocument[] = c.points.map((p, i) => ({
          id: `off_${String(i).padStart(4, '0')}`,
          title: 'lamp',
          description: '',
          category: i % 3 === 0 ? 'a' : 'b',
          tags: [],
          city: 'x',
          country: 'XX',
          currency: 'EUR',
          publisher: 'pub',
          price: i,
          lat: p.lat,
          lon: p.lon,
          status: 'active',
          publishedAt: i,
          updatedAt: 0,
          expiresAt: null,
        }));
        for (const d of docs) index.upsert(d);
        // A move: the offer leaves its cell.
        const first = docs[0] as IndexDocument;
        docs[0] = { ...first, lat: -first.lat, lon: -first.lon };
        index.upsert(docs[0]);
        const query = engineQuery(0, {
          categories: category === null ? [] : [category],
          bbox: c.box,
          sort: 'price',
          limit: 1000,
        });
        const { matchedStems: _, ...got } = index.search(query, []);
        expect(got).toEqual(referenceSearch(docs, query, []));
      }),
      { numRuns: 300 },
    );
  });
});
