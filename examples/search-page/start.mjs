#!/usr/bin/env node
// The search page, one command: `npm run example:search-page` (with `npm start` running).
// Bundles app.js (InstantSearch.js + @vitrine/instantsearch) with esbuild, makes sure there is a
// publishable key of the demo project allowed for this page's origin (created once with the CLI,
// kept in $DATA_DIR/search-page.json: a publishable key is not a secret), and serves the page.
//
//   npm run example:search-page                  then open http://localhost:5174/
//   PORT=3001 npm run example:search-page        another port (another origin: another key)
//   VITRINE_BASE_URL=… VITRINE_KEY=vk_pub_… …    any environment, with a key you made
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const port = Number(process.env.PORT ?? 5174);
const origin = `http://localhost:${port}`;
const baseUrl = process.env.VITRINE_BASE_URL ?? 'http://localhost:8081/v1';
const currency = process.env.CURRENCY ?? 'EUR';

function vitrine(args) {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args, '--json'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return JSON.parse(out);
}

/** A publishable key of the demo project for this origin: the one made before, or a new one. */
function publishableKey() {
  if (process.env.VITRINE_KEY) return process.env.VITRINE_KEY;
  const file = path.resolve(root, process.env.DATA_DIR ?? 'data', 'search-page.json');
  const saved = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  if (saved[origin]) return saved[origin];
  const [project] = vitrine(['projects', 'list', '--owner', 'demo@vitrine.local']).projects;
  if (!project) throw new Error('No demo project: run `npm start` once first.');
  const issued = vitrine([
    'keys',
    'issue',
    '--project',
    project.id,
    '--env',
    'testing',
    '--publishable',
    '--origin',
    origin,
  ]);
  saved[origin] = issued.key;
  fs.writeFileSync(file, JSON.stringify(saved, null, 2));
  process.stdout.write(`Created publishable key ${issued.id} for ${origin}.\n`);
  return issued.key;
}

const bundle = await esbuild.build({
  entryPoints: [path.join(here, 'app.js')],
  bundle: true,
  format: 'iife',
  target: 'es2020',
  write: false,
  minify: true,
  // The package's sources, so the example needs no build of the workspace first.
  alias: { '@vitrine/instantsearch': path.join(root, 'packages/instantsearch/src/index.ts') },
});
const script = bundle.outputFiles[0].text;
const config = { baseUrl, apiKey: publishableKey(), currency, attributes: [] };
const page = fs
  .readFileSync(path.join(here, 'index.html'), 'utf8')
  .replace('__VITRINE__', JSON.stringify(config).replace(/</g, '\\u003c'));
const files = {
  '/': ['text/html; charset=utf-8', page],
  '/app.js': ['text/javascript; charset=utf-8', script],
  '/style.css': ['text/css; charset=utf-8', fs.readFileSync(path.join(here, 'style.css'), 'utf8')],
};
const server = http.createServer((request, response) => {
  const file = files[new URL(request.url ?? '/', origin).pathname];
  if (!file) return response.writeHead(404).end('not found');
  response.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' }).end(file[1]);
});
server.listen(port, '127.0.0.1', () =>
  process.stdout.write(`Search page on ${origin}/ (Vitrine at ${baseUrl})\n`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
