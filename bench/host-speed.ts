/**
 * How fast this machine runs JavaScript now: a fixed piece of work (integer arithmetic, a Map of
 * strings, JSON) timed on one thread, the least of three tries, in milliseconds. Vitrine's
 * figures are measured on machines that differ from day to day (the same code's single-word p50
 * was 1.3 ms on one and 2.8 ms on the next): a bench's results carry this figure beside the load
 * average, so two runs on different machines can be told apart from two versions of the code.
 * 385–436 ms on the machine of 2026-11-27 evening. Run alone: `npx tsx bench/host-speed.ts`.
 */
export function hostSpeedMs(): number {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const started = performance.now();
    let x = 0;
    for (let i = 0; i < 50_000_000; i += 1) x = (Math.imul(x, 31) + i) | 0;
    const map = new Map<string, number>();
    for (let i = 0; i < 300_000; i += 1) map.set(`k${i}`, i ^ x);
    let sum = 0;
    for (let i = 0; i < 300_000; i += 3) sum += map.get(`k${i}`) ?? 0;
    const text = JSON.stringify([...map.entries()].slice(0, 50_000));
    sum += (JSON.parse(text) as unknown[]).length;
    if (sum === 0.5) throw new Error('unreachable: keeps the work from being optimised away');
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(best);
}

if (process.argv[1]?.endsWith('host-speed.ts')) console.log(`host speed: ${hostSpeedMs()} ms`);
