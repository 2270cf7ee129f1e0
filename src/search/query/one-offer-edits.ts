/**
 * The one-offer check's typo distance (one-offer.ts): whether a typed word is within a budget of
 * edits of one of an offer's words, as the engine's dictionary walk counts them.
 */

let grid = new Int32Array(65 * 65);

/**
 * Whether `key` is within `budget` edits of `typed` (optimal string alignment, UTF-16 units, as
 * the dictionary's walk counts them); with `prefix`, whether one of its prefixes is. Only the
 * band of cells within `budget` of the diagonal is computed (a cell off it is more than `budget`
 * away), and the walk stops once two rows are past the budget (no later cell can come back).
 */
export function within(typed: string, key: string, budget: number, prefix: boolean): boolean {
  const m = typed.length;
  const n = key.length;
  if (budget === 0) return prefix ? key.startsWith(typed) : key === typed;
  if (prefix ? n < m - budget : Math.abs(n - m) > budget) return false;
  const over = budget + 1;
  const width = m + 1;
  if (grid.length < (n + 1) * width) grid = new Int32Array((n + 1) * width);
  for (let j = 0; j <= m; j += 1) grid[j] = j <= budget ? j : over;
  let best = m <= budget ? m : over;
  let lastMin = 0;
  for (let i = 1; i <= n; i += 1) {
    const row = i * width;
    const up = row - width;
    const c = key.charCodeAt(i - 1);
    const cPrev = i >= 2 ? key.charCodeAt(i - 2) : -1;
    const lo = Math.max(1, i - budget);
    const hi = Math.min(m, i + budget);
    // Past the typed word's end by more than the budget (a prefix's longer key): nothing left to reach.
    if (lo > hi) return prefix && best <= budget;
    grid[row] = i <= budget ? i : over;
    if (lo > 1) grid[row + lo - 1] = over;
    // The cell right of the band: read by the next row as "up".
    if (hi < m) grid[row + hi + 1] = over;
    let rowMin = grid[row] as number;
    for (let j = lo; j <= hi; j += 1) {
      const t = typed.charCodeAt(j - 1);
      let v = Math.min(
        (grid[up + j] as number) + 1,
        (grid[row + j - 1] as number) + 1,
        (grid[up + j - 1] as number) + (t === c ? 0 : 1),
      );
      if (i >= 2 && j >= 2 && t === cPrev && typed.charCodeAt(j - 2) === c)
        v = Math.min(v, (grid[up - width + j - 2] as number) + 1);
      if (v > over) v = over;
      grid[row + j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi === m && (grid[row + m] as number) < best) best = grid[row + m] as number;
    // Every later cell comes from this row (+0 or more) or the one before (+1: a transposition).
    if (rowMin > budget && lastMin >= budget) return prefix && best <= budget;
    lastMin = rowMin;
  }
  return (prefix ? best : (grid[n * width + m] as number)) <= budget;
}
