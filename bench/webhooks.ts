import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import pino from 'pino';
import { loadConfig } from '../src/config/config.js';
import { migrate } from '../src/db/migrate.js';
import { createDeps } from '../src/deps.js';
import type { OfferInput } from '../src/offers/offer-input.js';
import { generateOffers } from '../src/offers/seed.js';
import { systemClock } from '../src/platform/clock.js';
import { hostSpeedMs } from './host-speed.js';
import { admin, adminUrl } from './postgres-admin.js';
import { benchSavedQuery } from './saved-searches.js';

/**
 * Saved-search alerts at scale (issue 24): BENCH_OFFERS offers (default 100 000), BENCH_SAVED
 * saved searches (default 100 000), then an import of BENCH_IMPORT_OFFERS new offers (default
 * 10 000, batches of 2 000 as `POST /offers/import` writes them) twice in one process, as one
 * `serve` would run it: first with no saved search having alerts, then with all of them having
 * alerts, the percolator and the dispatcher running beside the import every WEBHOOK_POLL_MS and a
 * real receiver on loopback. Prints both import rates and, per `saved_search.matched`, the time
 * from its offer's batch commit to its arrival at the receiver (p50, p95, max).
 *
 * The saved searches are what users save: specific (bench/saved-searches.ts: three or four words
 * of a seeded offer, its city, often its category and a price bound), so a new offer matches
 * few of them (the bench prints alerts per imported offer).
 *
 * As in `serve`, the environment's search index is kept and caught up with each write on the event
 * loop (built from the database on a data set's first run, then started from its snapshot);
 * BENCH_INDEX=0 leaves it out, as this bench did before 2026-11-28.
 *
 * Run by `BENCH_WEBHOOKS=1 npm run bench` or `npx tsx bench/webhooks.ts`; BENCH_BACKEND=postgres
 * uses BENCH_POSTGRES_ADMIN_URL. BENCH_REUSE=1 keeps the seeded offers (`$TMPDIR/<BENCH_DATASET>`,
 * default `vitrine-bench-webhooks-<backend>-<offers>`; the database of that name with `_`) and
 * reuses them next time; the saved searches, endpoint and imports are made again each run.
 */
const offers = Number(process.env.BENCH_OFFERS ?? 100_000);
const savedCount = Number(process.env.BENCH_SAVED ?? 100_000);
const importCount = Number(process.env.BENCH_IMPORT_OFFERS ?? 10_000);
const deliveriesAlone = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const backend = process.env.BENCH_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
const BATCH = 2_000;
/** As `serve` runs: the environment's search index, caught up with each write on the event loop. */
const withIndex = process.env.BENCH_INDEX !== '0';

const reuse = process.env.BENCH_REUSE === '1';
const dataset = process.env.BENCH_DATASET ?? `vitrine-bench-webhooks-${backend}-${offers}`;
const dataDir = reuse
  ? path.join(os.tmpdir(), dataset)
  : fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-webhooks-'));
fs.mkdirSync(dataDir, { recursive: true });
const seededMark = path.join(dataDir, 'bench-webhooks-seeded');
const seeded = reuse && fs.existsSync(seededMark);
const dbName = reuse ? dataset.replaceAll('-', '_') : `vitrine_bench_webhooks_${process.pid}`;
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
if (backend === 'postgres' && !seeded) {
  if (reuse) await admin(`DROP DATABASE IF EXISTS ${dbName}`);
  await admin(`CREATE DATABASE ${dbName}`);
}
/** Names unique to this run: a reused data set keeps the previous runs' rows. */
const run = `r${process.pid}`;
const config = loadConfig({
  DATA_DIR: dataDir,
  DATABASE_URL: backend === 'postgres' ? dbUrl.toString() : '',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  // The search index (below) starts from its snapshot in the data set after the first run.
  SEARCH_SNAPSHOT: withIndex ? 'true' : 'false',
  RATE_LIMITING: 'false',
});
const deps = createDeps(config, { clock: systemClock, logger: pino({ level: 'warn' }) });
// The receiver runs in a process of its own (as a real one would), so its work does not count
// against the import; it reports each alert's arrival (wall clock, shared by both processes).
const arrivals: { at: number; offerId: string }[] = [];
const RECEIVER = `
const http = require('node:http');
const server = http.createServer((request, response) => {
  let body = '';
  request.on('data', (c) => { body += c; });
  request.on('end', () => {
    const event = JSON.parse(body);
    if (event.type === 'saved_search.matched') process.stdout.write(Date.now() + ' ' + event.data.offer.id + '\\n');
    response.statusCode = 204;
    response.end();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;
const receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const receiverPort = new Promise<number>((resolve) => {
  let buffered = '';
  receiver.stdout?.on('data', (chunk) => {
    buffered += String(chunk);
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [first, second] = line.split(' ');
      if (first === 'port') resolve(Number(second));
      else arrivals.push({ at: Number(first), offerId: second ?? '' });
    }
  });
});

const log = (line: string) => console.log(`${line} (load average ${os.loadavg()[0]?.toFixed(2)})`);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** Observes the main thread's garbage collections until the returned function (which describes them) is called. */
function observeGc(): () => string {
  const gc = { minor: 0, other: 0, minorN: 0, otherN: 0 };
  const seen = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      // kind 1: a scavenge (minor); the others are mark-compact or incremental steps.
      if ((e as { detail?: { kind?: number } }).detail?.kind === 1) {
        gc.minor += e.duration;
        gc.minorN += 1;
      } else {
        gc.other += e.duration;
        gc.otherN += 1;
      }
    }
  });
  seen.observe({ entryTypes: ['gc'] });
  return () => {
    seen.disconnect();
    return `GC on the main thread: ${gc.minorN} minor ${gc.minor.toFixed(0)} ms, ${gc.otherN} other ${gc.other.toFixed(0)} ms`;
  };
}

/**
 * BENCH_TRACE=1: where each alert's time went, after its offer's commit (ms): the percolator's
 * round that matched it began (`saved_search_matches.created_at`), its delivery row was written
 * (`webhook_deliveries.created_at`), the pass that sent it recorded its outcome (`updated_at`),
 * and it reached the receiver. Per stage p50 / p95, and the stages of the slowest 5 %.
 */
async function timeline(committed: Map<string, number>, idToExternal: Map<string, string>) {
  const rounds = new Map<string, number>();
  for (const m of await deps.db.all<{ offer_id: string; created_at: number }>(
    "SELECT offer_id, MIN(created_at) AS created_at FROM saved_search_matches WHERE saved_search_id LIKE 'svs_bench%' GROUP BY offer_id",
  ))
    rounds.set(m.offer_id, Number(m.created_at));
  const sent = new Map<string, { created: number; updated: number }[]>();
  for (const d of await deps.db.all<{ body: string; created_at: number; updated_at: number }>(
    "SELECT body, created_at, updated_at FROM webhook_deliveries WHERE event_type = 'saved_search.matched'",
  )) {
    const offerId = (JSON.parse(d.body) as { data: { offer: { id: string } } }).data.offer.id;
    const list = sent.get(offerId) ?? [];
    list.push({ created: Number(d.created_at), updated: Number(d.updated_at) });
    sent.set(offerId, list);
  }
  const stages: Record<string, number[]> = { round: [], outbox: [], recorded: [], received: [] };
  const rows: number[][] = [];
  const used = new Map<string, number>();
  for (const a of arrivals) {
    const at = committed.get(idToExternal.get(a.offerId) ?? '');
    const d = sent.get(a.offerId);
    if (at === undefined || d === undefined) continue;
    const k = used.get(a.offerId) ?? 0;
    used.set(a.offerId, k + 1);
    const one = d[Math.min(k, d.length - 1)] as { created: number; updated: number };
    rows.push([
      (rounds.get(a.offerId) ?? Number.NaN) - at,
      one.created - at,
      one.updated - at,
      a.at - at,
      at,
    ]);
  }
  rows.sort((x, y) => (x[3] as number) - (y[3] as number));
  for (const r of rows) for (const [i, s] of Object.keys(stages).entries()) stages[s]?.push(r[i] as number);
  for (const list of Object.values(stages)) list.sort((x, y) => x - y);
  const slow = rows.slice(Math.floor(rows.length * 0.95));
  const mean = (i: number) => slow.reduce((n, r) => n + (r[i] as number), 0) / Math.max(1, slow.length);
  console.log(
    `timeline after commit (ms), p50 / p95: ${Object.entries(stages)
      .map(([s, l]) => `${s} ${pct(l, 0.5).toFixed(0)} / ${pct(l, 0.95).toFixed(0)}`)
      .join(', ')}; the slowest 5 %: ${Object.keys(stages)
      .map((s, i) => `${s} ${mean(i).toFixed(0)}`)
      .join(', ')}`,
  );
  // Per import batch (one commit): when it committed, and its alerts' stages (mean, ms after it).
  const batches = [...new Set(committed.values())].sort((x, y) => x - y);
  const t0 = batches[0] ?? 0;
  for (const b of batches) {
    const of = rows.filter((r) => r[4] === b);
    const avg = (i: number) =>
      (of.reduce((n, r) => n + (r[i] as number), 0) / Math.max(1, of.length)).toFixed(0);
    const last = of.reduce((n, r) => Math.max(n, r[3] as number), 0);
    console.log(
      `batch committed at +${b - t0} ms: ${of.length} alerts, mean round ${avg(0)}, outbox ${avg(1)}, recorded ${avg(2)}, received ${avg(3)}, last received ${last}`,
    );
  }
}

try {
  await migrate(deps.db);
  const port = await receiverPort;
  await deps.developers.add({ email: `bench-${run}@example.com` });
  const project = await deps.projects.add({ name: 'Bench', ownerEmail: `bench-${run}@example.com` });

  let started = performance.now();
  if (!seeded) {
    const seed: OfferInput[] = [];
    for (const offer of generateOffers({ count: offers, seed: 42 })) {
      seed.push(offer);
      if (seed.length === 10_000) await deps.offers.upsertMany('testing', seed.splice(0));
    }
    if (seed.length) await deps.offers.upsertMany('testing', seed.splice(0));
    if (reuse) fs.writeFileSync(seededMark, String(offers));
    log(`seeded ${offers} offers in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } else log(`reused ${offers} seeded offers (${dataset})`);
  // As `serve` runs: the environment's search index, caught up with each write on the event
  // loop (BENCH_INDEX=0: without it, as this bench ran before 2026-11-28).
  if (withIndex) {
    started = performance.now();
    await deps.searchIndexes.start(['testing'], config.searchPollMs);
    log(`search index built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // A previous run's saved searches and endpoints (a reused data set) take no part.
  await deps.db.run("DELETE FROM saved_searches WHERE id LIKE 'svs_bench%'");
  await deps.db.run('DELETE FROM webhook_endpoints');

  // Saved searches as users save them (see the top of this file), from offers of the seed.
  started = performance.now();
  const sample = [...generateOffers({ count: Math.min(offers, 20_000), seed: 42 })];
  const users = Math.ceil(savedCount / 100);
  const savedAt = Date.now() - 3_600_000;
  await deps.db.transaction(async (tx) => {
    for (let u = 0; u < users; u += 1) {
      await tx.run(
        "INSERT INTO users (id, environment, email, name, password_hash, state, created_at, password_changed_at) VALUES (?, 'testing', ?, '', 'x', 'active', 0, 0) ON CONFLICT DO NOTHING",
        [`usr_bench${u}`, `u${u}@example.com`],
      );
    }
    for (let i = 0; i < savedCount; i += 1) {
      const query = benchSavedQuery(sample[(i * 7919) % sample.length] as OfferInput, i);
      await tx.run(
        "INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq) VALUES (?, ?, 'bench', ?, ?, 0, ?, 'testing', 0)",
        // One a second until an hour ago: a round re-reads only those saved in the last minutes.
        [
          `svs_bench${i}`,
          `usr_bench${Math.floor(i / 100)}`,
          JSON.stringify(query),
          savedAt - (savedCount - i) * 1000,
          project.id,
        ],
      );
    }
  });
  log(`saved ${savedCount} searches in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const actor = { kind: 'cli' as const, id: 'bench', email: null, ip: null };
  await deps.webhooks.service.add(
    actor,
    { projectId: project.id, environment: 'testing' },
    { url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['saved_search.matched'] },
  );
  await deps.webhooks.percolator.runOnce(); // the cursor past the seed

  // Delivery alone first: BENCH_DELIVERIES events recorded at once, then drained by the
  // dispatcher to the receiver (which answers at once): deliveries per second and their CPU.
  if (deliveriesAlone > 0) {
    const at = (n: number) => ({
      projectId: project.id,
      environment: 'testing' as const,
      type: 'saved_search.matched' as const,
      data: {
        savedSearch: { id: `svs_bench${n}`, name: 'bench' },
        user: { id: 'usr_bench0' },
        offer: {
          id: `off_delivery${n}`,
          title: 'A bench offer',
          category: 'furniture',
          city: 'Lyon',
          country: 'FR',
        },
      },
    });
    for (let n = 0; n < deliveriesAlone; n += 500)
      await deps.db.transaction(async (tx) => {
        for (let k = n; k < Math.min(deliveriesAlone, n + 500); k += 1)
          await deps.webhooks.service.recordEvent(tx, at(k));
      });
    const before = arrivals.length;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const gcAlone = observeGc();
    const loopAlone = performance.eventLoopUtilization();
    while ((await deps.webhooks.dispatcher.runOnce()) > 0);
    const busyAlone = performance.eventLoopUtilization(loopAlone).active;
    const seconds = (performance.now() - t0) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    log(
      `delivery alone: ${deliveriesAlone} events in ${seconds.toFixed(2)} s, ${Math.round(deliveriesAlone / seconds)} deliveries/s; CPU ${cpuMs.toFixed(0)} ms (${((cpuMs * 1000) / deliveriesAlone).toFixed(0)} µs per delivery), event loop busy ${((busyAlone * 1000) / deliveriesAlone).toFixed(0)} µs per delivery; ${gcAlone()}`,
    );
    while (arrivals.length - before < deliveriesAlone) await new Promise((r) => setTimeout(r, 20));
    arrivals.length = 0;
    await deps.db.run("DELETE FROM webhook_deliveries WHERE body LIKE '%off_delivery%'");

    // The same events as a round of alerts records them, the dispatcher running (`serve`): 500
    // per transaction, the dispatcher told after each commit (given the deliveries claimed at
    // birth, ADR 0060), a turn of the event loop between transactions. From the first record to
    // the last arrival, the recording included.
    deps.webhooks.dispatcher.start(config.webhookPollMs);
    const cpuBorn = process.cpuUsage();
    const t1 = performance.now();
    const gcBorn = observeGc();
    const loopBorn = performance.eventLoopUtilization();
    for (let n = 0; n < deliveriesAlone; n += 500) {
      const events = Array.from({ length: Math.min(500, deliveriesAlone - n) }, (_, k) => at(n + k));
      const births = await deps.db.transaction((tx) => deps.webhooks.service.recordEvents(tx, events));
      deps.webhooks.dispatcher.nudge(births);
      await new Promise((resolve) => setImmediate(resolve));
    }
    while (arrivals.length < deliveriesAlone) await new Promise((r) => setTimeout(r, 5));
    await deps.webhooks.dispatcher.runOnce(); // the last pass's outcomes recorded
    const busyBorn = performance.eventLoopUtilization(loopBorn).active;
    const secondsBorn = (performance.now() - t1) / 1000;
    const usedBorn = process.cpuUsage(cpuBorn);
    const cpuBornMs = (usedBorn.user + usedBorn.system) / 1000;
    log(
      `delivery as recorded: ${deliveriesAlone} events in ${secondsBorn.toFixed(2)} s, ${Math.round(deliveriesAlone / secondsBorn)} deliveries/s; CPU ${cpuBornMs.toFixed(0)} ms (${((cpuBornMs * 1000) / deliveriesAlone).toFixed(0)} µs per delivery), event loop busy ${((busyBorn * 1000) / deliveriesAlone).toFixed(0)} µs per delivery, recording included; ${gcBorn()}`,
    );
    arrivals.length = 0;
    await deps.db.run("DELETE FROM webhook_deliveries WHERE body LIKE '%off_delivery%'");
  }
  deps.webhooks.start(config.webhookPollMs);

  /**
   * Imports `count` new offers in batches; resolves to offers/s and each offer's commit time.
   * After each batch the event loop takes a turn, as it does in a real import while the next rows
   * are read from the request's socket (`POST /offers/import`) or another process writes them
   * (`vitrine import`): SQLite's writes are synchronous, and five batches written back to back
   * held the loop until the last one, so no alert could start before the import ended (ADR 0058).
   */
  async function importRun(label: string, from: number) {
    const committed = new Map<string, number>();
    const batch: OfferInput[] = [];
    const startedAt = performance.now();
    const flush = async () => {
      const written = batch.splice(0);
      await deps.offers.upsertMany('testing', written);
      const at = Date.now();
      for (const o of written) committed.set(o.externalId, at);
      await new Promise((resolve) => setImmediate(resolve));
    };
    for (const offer of generateOffers({ count: importCount, seed: from })) {
      batch.push({ ...offer, externalId: `${label}-${run}-${offer.externalId}`, publishedAt: Date.now() });
      if (batch.length === BATCH) await flush();
    }
    if (batch.length) await flush();
    const seconds = (performance.now() - startedAt) / 1000;
    return { rate: importCount / seconds, committed };
  }

  /** True when every offer change was matched and every delivery made. */
  const caughtUp = async () => {
    const pending = Number(
      (
        await deps.db.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending'",
        )
      )?.n,
    );
    const cursor = await deps.db.get<{ value: number }>(
      "SELECT value FROM webhook_cursors WHERE name = 'percolate:testing'",
    );
    const counter = await deps.db.get<{ value: number }>(
      "SELECT value FROM change_counters WHERE name = 'offers:testing'",
    );
    if (process.env.BENCH_TRACE === '1')
      console.log(
        `${Date.now() % 100_000} pending ${pending} cursor ${cursor?.value} counter ${counter?.value} received ${arrivals.length}`,
      );
    return pending === 0 && Number(cursor?.value) === Number(counter?.value);
  };
  const waitCaughtUp = async (ms: number) => {
    const deadline = performance.now() + ms;
    while (performance.now() < deadline) {
      if (await caughtUp()) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  log(`host speed: ${hostSpeedMs()} ms (bench/host-speed.ts, lower is faster)`);
  const without = await importRun('plain', 7);
  log(`import without alerts: ${Math.round(without.rate)} offers/s`);
  await waitCaughtUp(120_000); // the plain offers matched (against nothing) before alerts are on
  await deps.db.run("UPDATE saved_searches SET alerts = 1 WHERE id LIKE 'svs_bench%'");
  deps.webhooks.percolator.reset();
  // Files the saved searches, as `serve` does at start (nothing changed meanwhile).
  const filing = performance.now();
  await deps.webhooks.percolator.warm();
  log(`filed ${savedCount} saved searches in ${((performance.now() - filing) / 1000).toFixed(1)} s`);
  const { checked: checkedBefore, matchMs: cpuBefore } = deps.webhooks.percolator.stats();
  // The service's CPU from the import to the last delivery: every thread of this process (the
  // import, the matching worker, the dispatcher), not the receiver's; and the event loop's share.
  const alertsCpu = process.cpuUsage();
  const alertsLoop = performance.eventLoopUtilization();
  const gcAlerts = observeGc();
  const withAlerts = await importRun('alerts', 8);
  log(`import with ${savedCount} saved searches with alerts: ${Math.round(withAlerts.rate)} offers/s`);
  // The events of the last batch: wait until the queue is empty (at most 120 s).
  const drained = await waitCaughtUp(120_000);
  const alertsUsed = process.cpuUsage(alertsCpu);
  const loop = performance.eventLoopUtilization(alertsLoop);
  log(
    `import to last delivery: ${(loop.idle + loop.active).toFixed(0)} ms; CPU of this process (all threads) ${((alertsUsed.user + alertsUsed.system) / 1000).toFixed(0)} ms; event loop busy ${loop.active.toFixed(0)} ms; ${gcAlerts()}`,
  );
  if (!drained) {
    const states = await deps.db.all('SELECT state, COUNT(*) AS n FROM webhook_deliveries GROUP BY state');
    const cursors = await deps.db.all('SELECT * FROM webhook_cursors');
    const counters = await deps.db.all("SELECT * FROM change_counters WHERE name LIKE 'offers:%'");
    console.log(JSON.stringify({ states, cursors, counters }));
  }
  const idToExternal = new Map<string, string>();
  const rows = await deps.db.all<{ id: string; external_id: string }>(
    `SELECT id, external_id FROM offers WHERE environment = 'testing' AND external_id LIKE 'alerts-${run}-%'`,
  );
  for (const r of rows) idToExternal.set(r.id, r.external_id);
  const recorded = Number(
    (
      await deps.db.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'delivered'",
      )
    )?.n,
  );
  console.log(
    `${arrivals.length} matched events received (${(arrivals.length / importCount).toFixed(2)} per imported offer; ${recorded} deliveries recorded delivered)`,
  );
  const latencies = arrivals
    .map((a) => a.at - (withAlerts.committed.get(idToExternal.get(a.offerId) ?? '') ?? Number.NaN))
    .filter((ms) => Number.isFinite(ms))
    .sort((a, b) => a - b);
  if (process.env.BENCH_TRACE === '1') await timeline(withAlerts.committed, idToExternal);
  const checked = deps.webhooks.percolator.stats().checked - checkedBefore;
  const matchCpu = deps.webhooks.percolator.stats().matchMs - cpuBefore;
  log(
    `saved_search.matched: ${latencies.length} events${drained ? '' : ' (queue not drained in 120 s)'}; after the offer's commit p50 ${pct(latencies, 0.5).toFixed(0)} ms, p95 ${pct(latencies, 0.95).toFixed(0)} ms, max ${(latencies.at(-1) ?? Number.NaN).toFixed(0)} ms`,
  );
  log(
    `rate with alerts / without: ${(withAlerts.rate / without.rate).toFixed(2)}; (offer, saved search) pairs checked exactly: ${checked} for ${importCount} offers (every search for every offer would be ${savedCount * importCount}); matching (worker busy time) ${matchCpu.toFixed(0)} ms (${((matchCpu * 1000) / importCount).toFixed(0)} µs per offer)`,
  );
} finally {
  await deps.webhooks.stop();
  await deps.close();
  receiver.kill();
  if (!reuse) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (backend === 'postgres') await admin(`DROP DATABASE IF EXISTS ${dbName}`);
  }
}
