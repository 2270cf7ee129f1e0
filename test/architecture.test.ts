import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 14's layering, checked on the source itself (docs/adr/0023): no runtime import cycle;
 * `http/` (and `platform/`, `config/`, `db/`) import no capability; no route module reaches a
 * store; one composition root; no code file over 400 lines (data aside).
 */
const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');

interface Edge {
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const IMPORT = /^(?:import|export)\s+(type\s+)?(?:[^;'"]*?\sfrom\s+)?'(\.[^']+)';/gms;

function importsOf(file: string): Edge[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => ({
    // With verbatimModuleSyntax only `import type` is erased; `import { type A }` still loads.
    typeOnly: m[1] !== undefined,
    to: path.resolve(path.dirname(file), (m[2] as string).replace(/\.js$/, '.ts')),
  }));
}

const files = sourceFiles(src);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string) => path.relative(src, f);
const area = (f: string) => rel(f).split(path.sep)[0] ?? '';

/**
 * Strongly connected components with more than one node (Tarjan) of the import graph: the runtime
 * one by default; `typeOnly` edges too with `types`; nodes folded by `node` (a file by default).
 */
function cycles({ types = false, within = (_: string): boolean => true, node = rel } = {}): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const [from, imports] of graph) {
    if (!within(from)) continue;
    const out = edges.get(node(from)) ?? new Set<string>();
    edges.set(node(from), out);
    for (const { to, typeOnly } of imports)
      if ((types || !typeOnly) && graph.has(to) && within(to) && node(to) !== node(from)) out.add(node(to));
  }
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const to of edges.get(v) ?? []) {
      if (!indices.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v) as number, indices.get(to) as number));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!indices.has(v)) visit(v);
  return found;
}

/** Folders every capability stands on; they import none of the capabilities. */
const FLOOR = new Set(['http', 'platform', 'config', 'db']);

describe('the layering of issue 14', () => {
  it('reads the imports it checks (the checker itself works)', () => {
    expect(graph.get(path.join(src, 'app.ts'))?.some((e) => e.to.endsWith('deps.ts') && e.typeOnly)).toBe(
      true,
    );
    expect(graph.get(path.join(src, 'deps.ts'))?.some((e) => e.to.endsWith('keys/store.ts'))).toBe(true);
  });

  it('has no runtime import cycle', () => {
    expect(cycles()).toEqual([]);
  });

  it('search/ (the engine) imports no other capability, type imports included (HTML escaping aside)', () => {
    const outside = files
      .filter((f) => area(f) === 'search')
      .flatMap((f) =>
        (graph.get(f) ?? [])
          .filter((e) => e.to.startsWith(src) && area(e.to) !== 'search' && rel(e.to) !== 'web/html.ts')
          .map((e) => `${rel(f)} → ${rel(e.to)}`),
      );
    expect(outside).toEqual([]);
  });

  it('the engine has no import cycle, type imports included, between its files nor between its rooms', () => {
    const inSearch = (f: string) => area(f) === 'search';
    // A room is a sub-folder of search/; each file at its top is a room of its own.
    const room = (f: string) => rel(f).split(path.sep).slice(0, 2).join('/');
    expect(cycles({ types: true, within: inSearch })).toEqual([]);
    expect(cycles({ types: true, within: inSearch, node: room })).toEqual([]);
  });

  it('http/ and the other floor folders import no capability', () => {
    const upward = files
      .filter((f) => FLOOR.has(area(f)))
      .flatMap((f) =>
        (graph.get(f) ?? [])
          .filter((e) => e.to.startsWith(src) && !FLOOR.has(area(e.to)))
          .map((e) => `${rel(f)} → ${rel(e.to)}`),
      );
    expect(upward).toEqual([]);
  });

  it('no route module imports a store or the database (handlers call services)', () => {
    const routeModules = files.filter(
      (f) => /routes?\.ts$|-routes\.ts$|pages\.ts$/.test(f) && !FLOOR.has(area(f)),
    );
    expect(routeModules.length).toBeGreaterThan(10);
    const reaching = routeModules.flatMap((f) =>
      (graph.get(f) ?? [])
        .filter((e) => /(^|[/-])store(-sql)?\.ts$|\/db\/(database|sqlite|postgres)\.ts$/.test(e.to))
        .map((e) => `${rel(f)} → ${rel(e.to)}`),
    );
    expect(reaching).toEqual([]);
  });

  it('builds dependencies in one place: only deps.ts creates stores', () => {
    const builders = files.filter(
      (f) =>
        !rel(f).endsWith('deps.ts') &&
        /\bcreate[A-Z]\w*Store\(/.test(
          fs.readFileSync(f, 'utf8').replace(/export function create\w*Store\(/g, ''),
        ),
    );
    expect(builders.map(rel)).toEqual([]);
  });

  it('the steps of the auth door (auth/authorize/, auth/token/) import no Fastify and no route module', () => {
    // Issue 26 (docs/adr/0041): a step takes values and returns a result; HTTP stays in the routes.
    const steps = files.filter((f) => /^auth\/(authorize|token)\//.test(rel(f).split(path.sep).join('/')));
    expect(steps.length).toBeGreaterThan(10);
    const http = steps.flatMap((f) => [
      ...(/from ['"](fastify|@fastify\/[^'"]+)['"]/.test(fs.readFileSync(f, 'utf8'))
        ? [`${rel(f)} → fastify`]
        : []),
      ...(graph.get(f) ?? [])
        .filter((e) => /(routes?|pages|replies)\.ts$/.test(e.to))
        .map((e) => `${rel(f)} → ${rel(e.to)}`),
    ]);
    expect(http).toEqual([]);
  });

  it('keeps every code file within 400 lines (data aside)', () => {
    const EXEMPT = new Set(['offers/seed-data.ts']);
    const long = files
      .filter((f) => !EXEMPT.has(rel(f)))
      .map((f) => ({ file: rel(f), lines: fs.readFileSync(f, 'utf8').split('\n').length }))
      .filter((f) => f.lines > 400);
    expect(long).toEqual([]);
  });
});
