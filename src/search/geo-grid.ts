import { distanceKm, EARTH_RADIUS_KM } from '../offers/geo.js';
import { Bitmap, type Bits } from './slot-sets.js';

/**
 * A grid of cells of CELL_DEGREES over the globe, each holding the live slots of the offers
 * inside as a bitmap. A query keeps the cells that can hold a point
 * within reach, using a bound that holds on the sphere: by the triangle inequality, every point
 * of a cell lies within `reach` of its centre, so its distance to `near` is at least
 * distance(near, centre) − reach. Cells are small (about 5 km) so that a radius covers most of
 * its cells whole and a nearest-first page reads few points (ADR 0019).
 */
const CELL_DEGREES = 0.05;
const DEGREE = Math.PI / 180;
const ROWS = 180 / CELL_DEGREES;
const COLUMNS = 360 / CELL_DEGREES;

export interface Cell {
  bits: Bits;
  lat: number;
  lon: number;
  /** Km: no point of the cell is farther than this from (lat, lon). */
  reach: number;
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

  add(slot: number, lat: number, lon: number): void {
    const row = clampRow(lat);
    const column = clampColumn(lon);
    const key = row * COLUMNS + column;
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = makeCell(row, column);
      this.cells.set(key, cell);
      this.list.push(cell);
    }
    cell.bits.add(slot);
  }

  /** Forgets the slot (added with the same coordinates). */
  remove(slot: number, lat: number, lon: number): void {
    this.cells.get(clampRow(lat) * COLUMNS + clampColumn(lon))?.bits.remove(slot);
  }

  trim(): void {
    for (const cell of this.list) {
      cell.bits.runOptimize();
      cell.bits.shrinkToFit();
    }
  }

  /** Every cell with the least distance any of its points can be from `near`, nearest first. */
  byDistance(near: { lat: number; lon: number }): Array<{ cell: Cell; min: number; max: number }> {
    const out = this.list.map((cell) => {
      const d = distanceKm(near, cell);
      return { cell, min: Math.max(d - cell.reach, boxDistanceKm(near, cell)), max: d + cell.reach };
    });
    return out.sort((a, b) => a.min - b.min);
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
   * The cells that may hold a point within `radiusKm` of `near`: `inside` those whose every point
   * is within it, `boundary` the others (their points need testing one by one).
   */
  cellsWithin(near: { lat: number; lon: number }, radiusKm: number): { inside: Cell[]; boundary: Cell[] } {
    const inside: Cell[] = [];
    const boundary: Cell[] = [];
    for (const cell of this.candidates(near, radiusKm)) {
      const d = distanceKm(near, cell);
      if (d - cell.reach > radiusKm) continue;
      if (d + cell.reach < radiusKm) inside.push(cell);
      else boundary.push(cell);
    }
    return { inside, boundary };
  }
}

/**
 * A lower bound of the distance from `near` to any point of the cell, tighter than the reach
 * for the cells beside `near`: by the haversine formula, hav(d) = hav(Δlat) + cos lat1 cos lat2
 * hav(Δlon) ≥ hav(the latitude gap to the cell) + cos²(the largest |lat|) hav(the longitude gap).
 */
function boxDistanceKm(near: { lat: number; lon: number }, cell: Cell): number {
  const half = CELL_DEGREES / 2;
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

function makeCell(row: number, column: number): Cell {
  const south = row * CELL_DEGREES - 90;
  const west = column * CELL_DEGREES - 180;
  const centre = { lat: south + CELL_DEGREES / 2, lon: west + CELL_DEGREES / 2 };
  let reach = 0;
  for (const lat of [south, centre.lat, south + CELL_DEGREES])
    for (const lon of [west, centre.lon, west + CELL_DEGREES])
      reach = Math.max(reach, distanceKm(centre, { lat, lon }));
  // The farthest point of a small cell is a corner; the margin covers the sphere's curvature and
  // rounding (kept small: a loose reach makes a nearest-first page read more cells).
  return { bits: new Bitmap(), lat: centre.lat, lon: centre.lon, reach: reach * 1.02 + 0.01 };
}
