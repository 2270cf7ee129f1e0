import os from 'node:os';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { projectOfferId } from '../src/offers/import-http.js';
import { toOfferRecord } from '../src/offers/offer-record.js';
import { generateOffers } from '../src/offers/seed.js';
import { percentile, startBenchServer } from './soak-server.js';
import { variedMix } from './varied.js';

/**
 * `npm run bench:soak` (issue 26): memory and latency under writes. A fresh server with
 * SOAK_OFFERS seeded offers serves SOAK_CONNECTIONS closed-loop connections of the varied search
 * mix (bench/varied.ts) for SOAK_MINUTES while one HTTP import streams SOAK_IMPORT_OFFERS new
 * offers, paced over the run. Reports the server's memory every 10 s with its breakdown (heap,
 * external, native: see `sample`), its RSS peak (sampled each second), the p99 of each minute,
 * errors, the server's CPU per request, and whether SOAK_SAMPLE imported offers are found by a
 * search at the end. The figure is SQLite at 1M offers, 10 minutes, 8 connections,
 * 100 000 imported; on a shared machine run it smaller and say so:
 *   SOAK_OFFERS=200000 SOAK_MINUTES=3 SOAK_IMPORT_OFFERS=20000 npm run bench:soak
 * BENCH_BACKEND=postgres runs it on a PostgreSQL database of its own.
 */
const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 8);
const seeded = Number(process.env.SOAK_OFFERS ?? 1_000_000);
const importCount = Number(process.env.SOAK_IMPORT_OFFERS ?? 100_000);
const sampleSize = Number(process.env.SOAK_SAMPLE ?? 200);
const backend = process.env.BENCH_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
const durationMs = minutes * 60_000;

const imported = [...generateOffers({ count: importCount, seed: 2601 })].map((offer, i) => ({
  ...toOfferRecord(offer),
  externalId: `soak-${i}`,
  status: 'active' as const,
  expiresAt: null,
}));

/** The import body, paced so that it spans the run (500 lines at a time). */
async function* paced(): AsyncGenerator<string> {
  const started = performance.now();
  for (let i = 0; i < imported.length; i += 500) {
    yield `${imported
      .slice(i, i + 500)
      .map((r) => JSON.stringify(r))
      .join('\n')}\n`;
    const due = started + ((i + 500) / imported.length) * durationMs * 0.9;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

const server = await startBenchServer({ name: 'soak', backend, seed: seeded });
try {
  const headers = { 'x-api-key': server.key };
  const paths = variedMix();
  const rssAtReady = server.rssMiB();
  let peak = rssAtReady;
  /**
   * One memory sample, MiB: the server's RSS from /proc, split into anonymous memory (`anon`) and
   * file-backed pages (`file`: the program, mapped files), and the main thread's JavaScript heap
   * (`heapUsed` of `heapTotal`) and `external` memory (buffers, typed arrays: the index's
   * columns) from its /metrics. `native` = anon − heapTotal − external: what is neither, mostly
   * SQLite's page caches, the worker threads' own heaps and the allocator's free lists; of it,
   * `brk` is the main thread's malloc heap (the event loop's SQLite connections); `young` is the
   * part of heapTotal that is V8's young generation.
   */
  const sample = async (second: number) => {
    const mem = server.residentMiB();
    const text = await fetch(`${server.origin}/metrics`).then(
      (r) => r.text(),
      () => '',
    );
    const metric = (name: string) =>
      Math.round(Number(new RegExp(`^vitrine_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 2 ** 20);
    // V8's young generation (its semi-spaces), part of heapTotal: what the heap holds beside the old generation.
    const young = Math.round(
      Number(
        /^vitrine_nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)$/m.exec(text)?.[1] ?? Number.NaN,
      ) /
        2 ** 20,
    );
    const heapUsed = metric('nodejs_heap_size_used_bytes');
    const heapTotal = metric('nodejs_heap_size_total_bytes');
    const external = metric('nodejs_external_memory_bytes');
    return {
      second,
      rss: Math.round(mem.rss),
      anon: Math.round(mem.anon),
      file: Math.round(mem.file),
      heapUsed,
      heapTotal,
      external,
      native: Math.round(mem.anon - heapTotal - external),
      brk: Math.round(mem.brk),
      young,
    };
  };
  type Sample = Awaited<ReturnType<typeof sample>>;
  const rss: Sample[] = [await sample(0)];
  const started = performance.now();
  const cpuAtStart = server.cpuSeconds();
  const peakTimer = setInterval(() => {
    peak = Math.max(peak, server.rssMiB());
  }, 1000);
  const rssTimer = setInterval(() => {
    sample(Math.round((performance.now() - started) / 1000)).then((s) => rss.push(s));
  }, 10_000);
  const importing = server.importNdjson(Readable.from(paced()));

  const perMinute: number[][] = Array.from({ length: Math.ceil(minutes) }, () => []);
  let errors = 0;
  let next = 0;
  const agent = new Agent({ connections, pipelining: 1 });
  const until = started + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const path = paths[next++ % paths.length] as string;
        const t0 = performance.now();
        try {
          const res = await request(`${server.origin}${path}`, { dispatcher: agent, headers });
          await res.body.dump();
          if (res.statusCode !== 200) errors += 1;
        } catch {
          errors += 1;
        }
        const minute = Math.min(perMinute.length - 1, Math.floor((t0 - started) / 60_000));
        perMinute[minute]?.push(performance.now() - t0);
      }
    }),
  );
  await agent.close();
  const answer = await importing;
  clearInterval(peakTimer);
  clearInterval(rssTimer);
  const rssEnd = server.rssMiB();
  peak = Math.max(peak, rssEnd);
  const cpuSeconds = server.cpuSeconds() - cpuAtStart;
  const atEnd = await sample(Math.round((performance.now() - started) / 1000));
  // The answer cache at the end (ADR 0050): what it holds of the heap, and whether the mix hit it.
  const metrics = await fetch(`${server.origin}/metrics`).then((r) => r.text());
  const counter = (pattern: RegExp) => Number(pattern.exec(metrics)?.[1] ?? Number.NaN);
  const answerCache = {
    mib: Math.round(counter(/^vitrine_search_cache_bytes (\S+)$/m) / 2 ** 20),
    hits: counter(/^vitrine_search_cache_lookups_total\{result="hit"\} (\S+)$/m),
    misses: counter(/^vitrine_search_cache_lookups_total\{result="miss"\} (\S+)$/m),
    declined: counter(/^vitrine_search_cache_declined_total (\S+)$/m),
  };

  // Imported offers, evenly spread over the body, each looked for by its title within its city.
  let found = 0;
  const step = Math.max(1, Math.floor(imported.length / sampleSize));
  const sampled = imported.filter((_, i) => i % step === 0).slice(0, sampleSize);
  for (const record of sampled) {
    const id = projectOfferId('testing', server.projectId, record.externalId);
    const q = new URLSearchParams({
      q: `"${record.title}"`,
      city: record.location.city,
      category: record.category,
      limit: '100',
    });
    const res = await fetch(`${server.origin}/v1/offers/?${q}`, { headers });
    const page = (await res.json()) as { data?: { id: string }[] };
    if (page.data?.some((o) => o.id === id)) found += 1;
  }

  const p99s = perMinute.map(
    (l) =>
      Math.round(
        percentile(
          [...l].sort((a, b) => a - b),
          99,
        ) * 100,
      ) / 100,
  );
  const requests = perMinute.reduce((n, l) => n + l.length, 0);
  const first = p99s[0] ?? Number.NaN;
  console.log(
    JSON.stringify(
      {
        backend,
        seeded,
        minutes,
        connections,
        importOffers: importCount,
        import: { status: answer.status, result: JSON.parse(answer.body) },
        rssMiB: {
          atReady: Math.round(rssAtReady),
          peak: Math.round(peak),
          end: Math.round(rssEnd),
          // One line per sample (MiB; see `sample` above).
          columns: 'second rss anon file heapUsed heapTotal external native brk young',
          every10s: [...rss, atEnd].map((r) =>
            [
              r.second,
              r.rss,
              r.anon,
              r.file,
              r.heapUsed,
              r.heapTotal,
              r.external,
              r.native,
              r.brk,
              r.young,
            ].join(' '),
          ),
        },
        answerCache,
        p99PerMinuteMs: p99s,
        requests,
        // The server's CPU per request (the import's included): what a setting costs in work.
        serverCpuSeconds: Math.round(cpuSeconds),
        serverCpuMsPerRequest: Number(((cpuSeconds * 1000) / requests).toFixed(2)),
        errors,
        sampledFound: `${found}/${sampled.length}`,
        criteria: {
          endWithin125: rssEnd <= 1.25 * rssAtReady,
          peakWithin150: peak <= 1.5 * rssAtReady,
          p99Within2xFirstMinute: p99s.every((p) => p <= 2 * first),
          noErrors: errors === 0,
          allFound: found === sampled.length,
        },
        loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
      },
      null,
      2,
    ),
  );
} finally {
  await server.close();
}
