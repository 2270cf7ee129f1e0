import type { BoundingBox } from './geo.js';

/**
 * Degrees a cell's bounds are widened by when compared with a window's: a point is filed in its
 * cell by a division that may round, so a cell counts as inside only with this to spare, and
 * every cell within it of the window is read.
 */
export const SLACK = 1e-9;

/** A cell's bounds (degrees) as its points may lie: unbounded outwards on the grid's outer rows and columns (clamped there). */
export interface Extent {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** The window's longitudes as one or two intervals (two across the antimeridian). */
export function lonIntervals(box: BoundingBox): Array<readonly [number, number]> {
  return box.minLon <= box.maxLon
    ? [[box.minLon, box.maxLon]]
    : [
        [box.minLon, Number.POSITIVE_INFINITY],
        [Number.NEGATIVE_INFINITY, box.maxLon],
      ];
}

/** 1: every point of the extent is in the window; 0: some may be; -1: none is. */
export function boxHolds(
  box: BoundingBox,
  lons: ReadonlyArray<readonly [number, number]>,
  e: Extent,
): 1 | 0 | -1 {
  if (!(e.south - SLACK <= box.maxLat && e.north + SLACK >= box.minLat)) return -1;
  const latInside = e.south - SLACK >= box.minLat && e.north + SLACK <= box.maxLat;
  let meets = false;
  for (const [lo, hi] of lons) {
    if (!(e.west - SLACK <= hi && e.east + SLACK >= lo)) continue;
    if (latInside && e.west - SLACK >= lo && e.east + SLACK <= hi) return 1;
    meets = true;
  }
  return meets ? 0 : -1;
}
