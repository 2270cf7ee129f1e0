import { type BoundingBox, distanceKm, EARTH_RADIUS_KM } from './geo.js';
import { boxHolds, lonIntervals, SLACK } from './geo-window.js';
import { Bitmap, type Bits } from './slot-sets.js';

/**
 * A grid of cells of CELL_DEGREES over the globe, each holding the live slots of the offers
 * inside as a bitmap. A query keeps the cells that can hold a point
 * within reach, using a bound that holds on the sphere: by the triangle inequality, every point
 * of a cell lies within `reach` of its centre, so its distance to `near` is at least
 * distance(near, centre) − reach. Cells are small (about 5 km) so that a radius covers most of
 * its cells whole; each is split again SPLIT × SPLIT (about 500 m) so that a nearest-first page
 * reads the few small cells around `near`, not every point of a city (ADR 0019).
 */
const CELL_DEGREES = 0.05;
const SPLIT = 10;
const FINE_DEGREES = CELL_DEGREES / SPLIT;
const DEGREE = Math.PI / 180;
const ROWS = 180 / CELL_DEGREES;
const COLUMNS = 360 / CELL_DEGREES;

export interface Cell {
  bits: Bits;
  lat: number;
  lon: number;
  /** Degrees: half the cell's side. */
  half: number;
  /** Km: no point of the cell is farther than this from (lat, lon). */
  reach: number;
  /** The cell's finer cells (by fine row × SPLIT + fine column), none for a fine cell. */
  fine: Map<number, Cell> | null;
  /** Slots added but not yet in `bits` (the first `count`; see GeoGrid.flush). */
  pending: Uint32Array | null;
  count: number;
}

/** Slots added to a cell are handed to CRoaring this many at a time (one native call, not one each). */
const BATCH = 32;

/** A cell with the bounds of the distance from `near` to its points. */
export interface Reach {
  cell: Cell;
  min: number;
  max: number;
}

function clampRow(lat: number): number {
  return Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
}

function clampColumn(lon: number): number {
  return Math.min(COLUMNS - 1, Math.max(0, Math.floor((lon + 180) / CELL_DEGREES)));
}

export class GeoGrid {
  private readonly cells = new Map<number, Cell>();
  private readonly list: Cell[] = [];
  /** Cells with slots pending: flushed before any cell is read or a slot removed. */
  private readonly dirty: Cell[] = [];
  /** Once built (`trim`) or restored, slots go straight into the cells' bitmaps (ValueSets' `direct`). */
  private direct = false;

  private queue(cell: Cell, slot: number): void {
    if (this.direct) {
      cell.bits.add(slot);
      return;
    }
    if (cell.pending === null) cell.pending = new Uint32Array(BATCH);
    if (cell.count === 0) this.dirty.push(cell);
    cell.pending[cell.count] = slot;
    cell.count += 1;
    if (cell.count === BATCH) {
      cell.bits.addMany(cell.pending);
      cell.count = 0;
    }
  }

  /** Every pending slot into its cell's bitmap. */
  private flush(): void {
    for (const cell of this.dirty) {
      if (cell.count > 0) cell.bits.addMany((cell.pending as Uint32Array).subarray(0, cell.count));
      cell.count = 0;
    }
    this.dirty.length = 0;
  }

  add(slot: number, lat: number, lon: number): void {
    const row = clampRow(lat);
    const column = clampColumn(lon);
    const key = row * COLUMNS + column;
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = makeCell(row * CELL_DEGREES - 90, column * CELL_DEGREES - 180, CELL_DEGREES, new Map());
      this.cells.set(key, cell);
      this.list.push(cell);
    }
    this.queue(cell, slot);
    const fine = cell.fine as Map<number, Cell>;
    const fineKey = fineIndex(lat, 90, row) * SPLIT + fineIndex(lon, 180, column);
    let small = fine.get(fineKey);
    if (small === undefined) {
      const south = row * CELL_DEGREES - 90 + Math.floor(fineKey / SPLIT) * FINE_DEGREES;
      const west = column * CELL_DEGREES - 180 + (fineKey % SPLIT) * FINE_DEGREES;
      small = makeCell(south, west, FINE_DEGREES, null);
      fine.set(fineKey, small);
    }
    this.queue(small, slot);
  }

  /** Forgets the slot (added with the same coordinates). */
  remove(slot: number, lat: number, lon: number): void {
    this.flush();
    const row = clampRow(lat);
    const column = clampColumn(lon);
    const cell = this.cells.get(row * COLUMNS + column);
    if (cell === undefined) return;
    cell.bits.remove(slot);
    cell.fine?.get(fineIndex(lat, 90, row) * SPLIT + fineIndex(lon, 180, column))?.bits.remove(slot);
  }

  /** The first `count` cells in order, with their keys and fine cells by key (snapshot.ts). */
  *cellsForSnapshot(count: number): Generator<{ key: number; bits: Bits; fine: ReadonlyMap<number, Cell> }> {
    this.flush();
    let n = 0;
    for (const [key, cell] of this.cells) {
      if (n++ >= count) return;
      yield { key, bits: cell.bits, fine: cell.fine ?? new Map() };
    }
  }

  get cellCount(): number {
    return this.list.length;
  }

  /** Adds a cell as `cellsForSnapshot` gave it (snapshot.ts's load, in the same order). */
  restoreCell(key: number, bits: Bits, fine: ReadonlyArray<readonly [number, Bits]>): void {
    const row = Math.floor(key / COLUMNS);
    const column = key % COLUMNS;
    const cell = makeCell(
      row * CELL_DEGREES - 90,
      column * CELL_DEGREES - 180,
      CELL_DEGREES,
      new Map(),
      bits,
    );
    for (const [fineKey, fineBits] of fine) {
      const south = row * CELL_DEGREES - 90 + Math.floor(fineKey / SPLIT) * FINE_DEGREES;
      const west = column * CELL_DEGREES - 180 + (fineKey % SPLIT) * FINE_DEGREES;
      cell.fine?.set(fineKey, makeCell(south, west, FINE_DEGREES, null, fineBits));
    }
    this.cells.set(key, cell);
    this.list.push(cell);
    this.direct = true;
  }

  trim(): void {
    this.flush();
    for (const cell of this.list) {
      for (const c of [cell, ...(cell.fine?.values() ?? [])]) {
        c.pending = null;
        c.bits.runOptimize();
        c.bits.shrinkToFit();
      }
    }
    this.direct = true;
  }

  /**
   * The fine cells in the order of the least distance any of their points can be from `near`
   * (best first: a cell's fine cells are bounded only when the cell comes up); with a radius,
   * only the cells that may hold a point within it.
   */
  *nearestFirst(near: { lat: number; lon: number }, radiusKm: number | null = null): Generator<Reach> {
    this.flush();
    const heap = new ReachHeap();
    const cells = radiusKm === null ? this.list : this.candidates(near, radiusKm);
    for (const cell of cells) {
      const reach = reachOf(near, cell);
      if (radiusKm === null || reach.min <= radiusKm) heap.push(reach);
    }
    for (let next = heap.pop(); next !== undefined; next = heap.pop()) {
      if (next.cell.fine === null) yield next;
      else for (const small of next.cell.fine.values()) heap.push(reachOf(near, small));
    }
  }

  /**
   * The cells of the bounding box of the radius (its spherical cap: latitudes within the radius as
   * an arc, longitudes within asin(sin r / cos lat)), one cell of margin on every side; every cell
   * when the box would hold more cells than the grid has, or the cap nears a pole.
   */
  private candidates(near: { lat: number; lon: number }, radiusKm: number): readonly Cell[] {
    const r = radiusKm / EARTH_RADIUS_KM;
    const latSpan = r / DEGREE;
    if (r >= 0.5 || Math.abs(near.lat) + latSpan >= 80) return this.list;
    const lonSpan = Math.asin(Math.min(1, Math.sin(r) / Math.cos(near.lat * DEGREE))) / DEGREE;
    const row0 = Math.max(0, clampRow(near.lat - latSpan) - 1);
    const row1 = Math.min(ROWS - 1, clampRow(near.lat + latSpan) + 1);
    const width = Math.min(COLUMNS, Math.ceil((2 * lonSpan) / CELL_DEGREES) + 3);
    if ((row1 - row0 + 1) * width > this.list.length) return this.list;
    const column0 = Math.floor((near.lon - lonSpan + 180) / CELL_DEGREES) - 1;
    const out: Cell[] = [];
    for (let row = row0; row <= row1; row += 1) {
      for (let c = 0; c < width; c += 1) {
        const column = (((column0 + c) % COLUMNS) + COLUMNS) % COLUMNS;
        const cell = this.cells.get(row * COLUMNS + column);
        if (cell !== undefined) out.push(cell);
      }
    }
    return out;
  }

  /**
   * The cells of a map window (`bbox`, antimeridian included): `inside` the bitmaps of the cells
   * (or fine cells) wholly in it, `boundary` those of the fine cells its edges cross (their points
   * need testing one by one). The cells are looked up row by row over the window, or all read when
   * the window spans more cells than the grid holds.
   */
  cellsInBox(box: BoundingBox): { inside: Bits[]; boundary: Bits[] } {
    this.flush();
    const inside: Bits[] = [];
    const boundary: Bits[] = [];
    const lons = lonIntervals(box);
    const visit = (key: number, cell: Cell) => {
      const row = Math.floor(key / COLUMNS);
      const column = key % COLUMNS;
      const south = row === 0 ? Number.NEGATIVE_INFINITY : row * CELL_DEGREES - 90;
      const north = row === ROWS - 1 ? Number.POSITIVE_INFINITY : (row + 1) * CELL_DEGREES - 90;
      const west = column === 0 ? Number.NEGATIVE_INFINITY : column * CELL_DEGREES - 180;
      const east = column === COLUMNS - 1 ? Number.POSITIVE_INFINITY : (column + 1) * CELL_DEGREES - 180;
      const holds = boxHolds(box, lons, { south, north, west, east });
      if (holds === 1) inside.push(cell.bits);
      if (holds !== 0) return;
      for (const [fineKey, small] of cell.fine ?? []) {
        const fr = Math.floor(fineKey / SPLIT);
        const fc = fineKey % SPLIT;
        const s0 = row * CELL_DEGREES - 90 + fr * FINE_DEGREES;
        const w0 = column * CELL_DEGREES - 180 + fc * FINE_DEGREES;
        // The outer fine cells take what their cell's bounds do (the fine index is clamped too).
        const extent = {
          south: fr === 0 ? south : s0,
          north: fr === SPLIT - 1 ? north : s0 + FINE_DEGREES,
          west: fc === 0 ? west : w0,
          east: fc === SPLIT - 1 ? east : w0 + FINE_DEGREES,
        };
        const fine = boxHolds(box, lons, extent);
        if (fine === 1) inside.push(small.bits);
        else if (fine === 0) boundary.push(small.bits);
      }
    };
    const row0 = Math.max(0, clampRow(box.minLat - SLACK) - 1);
    const row1 = Math.min(ROWS - 1, clampRow(box.maxLat + SLACK) + 1);
    let spans = lons.map(([lo, hi]) => [
      Math.max(0, clampColumn(lo - SLACK) - 1),
      Math.min(COLUMNS - 1, clampColumn(hi + SLACK) + 1),
    ]);
    // Across the antimeridian, two spans that meet are every column (no cell visited twice).
    if (spans.length === 2 && (spans[1]?.[1] as number) + 1 >= (spans[0]?.[0] as number))
      spans = [[0, COLUMNS - 1]];
    let width = 0;
    for (const [c0, c1] of spans) width += (c1 as number) - (c0 as number) + 1;
    // Rows out of order (a NaN bound) or more cells than the grid holds: every cell, each classified.
    if (!(row1 >= row0) || (row1 - row0 + 1) * width > this.cells.size) {
      for (const [key, cell] of this.cells) visit(key, cell);
      return { inside, boundary };
    }
    for (let row = row0; row <= row1; row += 1)
      for (const [c0, c1] of spans)
        for (let column = c0 as number; column <= (c1 as number); column += 1) {
          const key = row * COLUMNS + column;
          const cell = this.cells.get(key);
          if (cell !== undefined) visit(key, cell);
        }
    return { inside, boundary };
  }

  /**
   * The cells that may hold a point within `radiusKm` of `near`: `inside` those whose every point
   * is within it, `boundary` the others (their points need testing one by one). A cell the circle
   * crosses is taken by its fine cells, as a map window's edges are: in a city, a 5 km cell the
   * circle crosses holds thousands of points, of which its fine cells leave a tenth or less to test.
   */
  cellsWithin(near: { lat: number; lon: number }, radiusKm: number): { inside: Cell[]; boundary: Cell[] } {
    this.flush();
    const inside: Cell[] = [];
    const boundary: Cell[] = [];
    const classify = (cell: Cell): boolean => {
      const d = distanceKm(near, cell);
      if (d - cell.reach > radiusKm) return true;
      if (d + cell.reach < radiusKm) inside.push(cell);
      else if (cell.fine === null) boundary.push(cell);
      else return false;
      return true;
    };
    for (const cell of this.candidates(near, radiusKm))
      if (!classify(cell)) for (const small of (cell.fine as Map<number, Cell>).values()) classify(small);
    return { inside, boundary };
  }
}

/**
 * A lower bound of the distance from `near` to any point of the cell, tighter than the reach
 * for the cells beside `near`: by the haversine formula, hav(d) = hav(Δlat) + cos lat1 cos lat2
 * hav(Δlon) ≥ hav(the latitude gap to the cell) + cos²(the largest |lat|) hav(the longitude gap).
 */
function boxDistanceKm(near: { lat: number; lon: number }, cell: Cell): number {
  const half = cell.half;
  const south = cell.lat - half;
  const north = cell.lat + half;
  const dLat = near.lat < south ? south - near.lat : near.lat > north ? near.lat - north : 0;
  let dLon = Math.abs(near.lon - cell.lon);
  if (dLon > 180) dLon = 360 - dLon;
  dLon = Math.max(0, dLon - half);
  const widest = Math.min(90, Math.max(Math.abs(near.lat), Math.abs(south), Math.abs(north)));
  const cos = Math.cos(widest * DEGREE);
  const h = Math.sin((dLat * DEGREE) / 2) ** 2 + cos * cos * Math.sin((dLon * DEGREE) / 2) ** 2;
  // Less a hair, for rounding.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, h))) * (1 - 1e-9) - 1e-6;
}

function reachOf(near: { lat: number; lon: number }, cell: Cell): Reach {
  const d = distanceKm(near, cell);
  return { cell, min: Math.max(d - cell.reach, boxDistanceKm(near, cell)), max: d + cell.reach };
}

/** The fine row (or column) of a coordinate inside its cell's row (column), 0 … SPLIT − 1. */
function fineIndex(value: number, offset: number, coarse: number): number {
  const i = Math.floor((value + offset) / FINE_DEGREES) - coarse * SPLIT;
  return Math.min(SPLIT - 1, Math.max(0, i));
}

function makeCell(
  south: number,
  west: number,
  side: number,
  fine: Map<number, Cell> | null,
  bits: Bits = new Bitmap(),
): Cell {
  const centre = { lat: south + side / 2, lon: west + side / 2 };
  let reach = 0;
  for (const lat of [south, centre.lat, south + side])
    for (const lon of [west, centre.lon, west + side])
      reach = Math.max(reach, distanceKm(centre, { lat, lon }));
  // The farthest point of a small cell is a corner; the margin covers the sphere's curvature and
  // rounding (kept small: a loose reach makes a nearest-first page read more cells).
  return {
    bits,
    lat: centre.lat,
    lon: centre.lon,
    half: side / 2,
    reach: reach * 1.02 + 0.01,
    fine,
    pending: null,
    count: 0,
  };
}

/** A binary min-heap of cells by `min`. */
class ReachHeap {
  private readonly items: Reach[] = [];

  push(item: Reach): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as Reach).min <= item.min) break;
      items[i] = items[parent] as Reach;
      i = parent;
    }
    items[i] = item;
  }

  pop(): Reach | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= items.length) break;
      const r = l + 1;
      const child = r < items.length && (items[r] as Reach).min < (items[l] as Reach).min ? r : l;
      if ((items[child] as Reach).min >= last.min) break;
      items[i] = items[child] as Reach;
      i = child;
    }
    items[i] = last;
    return top;
  }
}
