import { run } from './load.js';
import { SEARCH_MIX } from './mix.js';

const origin = process.argv[2] as string;
const key = process.argv[3] as string;
const which = process.argv[4] ?? 'mix';
const secs = Number(process.argv[5] ?? 10);
const paths = SEARCH_MIX.filter((t) => which === 'mix' || t.id === which).flatMap((t) =>
  t.queries.map((q) => `/v1/offers/?${q}`),
);
const inter: string[] = [];
const types = SEARCH_MIX.filter((t) => which === 'mix' || t.id === which).map((t) => t.queries);
for (let i = 0; i < 40; i++) for (const q of types) inter.push(`/v1/offers/?${q[i % q.length]}`);
const r = await run(
  origin,
  { name: which, paths: which === 'mix' ? inter : paths, headers: { 'x-api-key': key } },
  { connections: 8, durationMs: secs * 1000, warmupMs: 1000 },
);
console.log(JSON.stringify(r));
