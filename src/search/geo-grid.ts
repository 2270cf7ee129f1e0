import { distanceKm } from '../offers/geo.js';
import { Bitmap, type Bits } from './slot-sets.js';

/**
 * A grid of cells of CELL_DEGREES over the globe, each holding the live slots of the offers
 * inside as a bitmap. A query keeps the cells that can hold a point
 * within reach, using a bound that holds on the sphere: by the triangle inequality, every point
 * of a cell lies within `reach` of its centre, so its distance to `near` is at least
 * distance(near, centre) − reach.
 */
const CELL_DEGREES = 0.5;
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
  private list: Cell[] = [];

  add(slot: number, lat: number, lon: number): void {
    const row = clampRow(lat);
    const column = clampColumn(lon);
    const key = row * COLUMNS + column;
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = makeCell(row, column);
      this.cells.set(key, cell);
      this.list = [...this.cells.values()];
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
      return { cell, min: d - cell.reach, max: d + cell.reach };
    });
    return out.sort((a, b) => a.min - b.min);
  }

  /**
   * The cells that may hold a point within `radiusKm` of `near`: `inside` those whose every point
   * is within it, `boundary` the others (their points need testing one by one).
   */
  cellsWithin(near: { lat: number; lon: number }, radiusKm: number): { inside: Cell[]; boundary: Cell[] } {
    const inside: Cell[] = [];
    const boundary: Cell[] = [];
    for (const cell of this.list) {
      const d = distanceKm(near, cell);
      if (d - cell.reach > radiusKm) continue;
      if (d + cell.reach < radiusKm) inside.push(cell);
      else boundary.push(cell);
    }
    return { inside, boundary };
  }
}

function makeCell(row: number, column: number): Cell {
  const south = row * CELL_DEGREES - 90;
  const west = column * CELL_DEGREES - 180;
  const centre = { lat: south + CELL_DEGREES / 2, lon: west + CELL_DEGREES / 2 };
  let reach = 0;
  for (const lat of [south, centre.lat, south + CELL_DEGREES])
    for (const lon of [west, centre.lon, west + CELL_DEGREES])
      reach = Math.max(reach, distanceKm(centre, { lat, lon }));
  // The farthest point of a small cell is a corner; the margin covers the sphere's curvature.
  return { bits: new Bitmap(), lat: centre.lat, lon: centre.lon, reach: reach * 1.05 + 1 };
}
