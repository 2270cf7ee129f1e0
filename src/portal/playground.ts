import { validatorCompiler } from '../http/validation.js';
import type { KeyRecord } from '../keys/model.js';
import { applyFixedFilters } from '../offers/fixed-filters.js';
import { type SearchQuery, SearchQuerySchema } from '../offers/schemas.js';
import type { SearchOutcome } from '../offers/service.js';
import type { Environment } from '../platform/environment.js';
import type { Project } from '../projects/model.js';
import { emptyEnvironmentHint } from '../web/empty-environments.js';
import { html, type SafeHtml } from '../web/html.js';

/**
 * The query playground of a project page (issue 25): pick one of the project's keys, a query and
 * filters; the portal runs the search as that key would (its environment, a publishable key's
 * fixed filters) and shows the offers and facets, with the same request as curl and as SDK code.
 * The portal never holds a key's secret: the snippets read it from `VITRINE_KEY`.
 */
export const PLAYGROUND_FIELDS = ['q', 'category', 'city', 'currency', 'priceMax', 'sort'] as const;
export type PlaygroundInput = Partial<Record<(typeof PLAYGROUND_FIELDS)[number], string>>;

const LIMIT = 5;
const FACETS = 'category,city';

/** The search the form asks for, as `GET {base_url}/offers/` takes it (strings, as a URL has them). */
export function playgroundQuery(input: PlaygroundInput): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of PLAYGROUND_FIELDS) {
    const value = input[name]?.trim();
    if (value) query[name] = value;
  }
  query.limit = String(LIMIT);
  query.facets = FACETS;
  return query;
}

function snippets(base: string, query: Record<string, string>): SafeHtml {
  const url = `${base}/offers/?${new URLSearchParams(query).toString()}`;
  const { limit, facets, category, ...rest } = query;
  const params = JSON.stringify({
    ...rest,
    ...(category ? { category: [category] } : {}),
    limit: Number(limit),
    facets,
  });
  return html`<h3>The same request</h3>
<pre><code>curl -s -H "X-Api-Key: $VITRINE_KEY" '${url}'</code></pre>
<pre><code>// search.mjs — VITRINE_KEY=… node search.mjs
import { Vitrine } from '@vitrine/client';

const vitrine = new Vitrine({ baseUrl: '${base}', apiKey: process.env.VITRINE_KEY });
const page = await vitrine.offers.search(${params});
console.log(page.total.value, page.data.map((offer) =&gt; offer.title));</code></pre>`;
}

function results(outcome: SearchOutcome | { unavailable: string }): SafeHtml {
  if ('unavailable' in outcome) return html`<div class="notice" role="status">${outcome.unavailable}</div>`;
  if (!outcome.ok) {
    return html`<div class="alert" role="alert">${outcome.errors.map((e) => html`<p><code>${e.parameter}</code> ${e.message}</p>`)}</div>`;
  }
  const facets = Object.entries(outcome.facets ?? {});
  return html`<p class="lead" id="playground-total">${outcome.total.value} offer${outcome.total.value === 1 ? '' : 's'}</p>
<ol class="playground-hits">${outcome.offers.map(
    (o) =>
      html`<li><strong>${o.title}</strong> <span class="hint">${o.price.amount} ${o.price.currency} · ${o.location.city ?? ''} · ${o.category}</span></li>`,
  )}</ol>
${facets.map(
  ([name, counts]) =>
    html`<p><strong>${name}</strong>: ${counts.map((c, i) => html`${i > 0 ? ', ' : ''}${c.value} (${c.count})`)}</p>`,
)}`;
}

export function playgroundSection(p: {
  project: Project;
  keys: readonly KeyRecord[];
  key: KeyRecord | undefined;
  input: PlaygroundInput;
  base: Readonly<Record<Environment, string>>;
  outcome: SearchOutcome | { unavailable: string } | null;
  counts: Partial<Record<Environment, number>>;
}): SafeHtml {
  const active = p.keys.filter((k) => k.state === 'active');
  if (active.length === 0) {
    return html`<section id="playground"><h2>Try a query</h2>${emptyEnvironmentHint(p.counts)}<p>Once the project has an active key, try searches with it here.</p></section>`;
  }
  const chosen = p.key ?? active[0];
  const field = (name: (typeof PLAYGROUND_FIELDS)[number], label: string, hint = '') =>
    html`<label for="pg-${name}">${label}${hint ? html` <span class="hint">${hint}</span>` : ''}</label>
<input id="pg-${name}" name="${name}" type="text" value="${p.input[name] ?? ''}" maxlength="200">`;
  const query = playgroundQuery(p.input);
  return html`<section id="playground" class="quickstart" aria-labelledby="playground-title">
<h2 id="playground-title">Try a query</h2>
${emptyEnvironmentHint(p.counts)}
<form method="get" action="/portal/projects/${p.project.id}#playground" class="stack">
<label for="pg-key">Key</label>
<select id="pg-key" name="key">${active.map(
    (k) =>
      html`<option value="${k.id}"${k.id === chosen?.id ? html` selected` : ''}>${k.id} (${k.environment}, ${k.kind})</option>`,
  )}</select>
${field('q', 'Query', '(e.g. road bike)')}
${field('category', 'Category', '(e.g. furniture)')}
${field('city', 'City')}
${field('currency', 'Currency', '(e.g. EUR, to sort or range prices)')}
${field('priceMax', 'Highest price')}
<label for="pg-sort">Sort</label>
<select id="pg-sort" name="sort">${['', 'relevance', '-publishedAt', 'price', '-price'].map(
    (s) =>
      html`<option value="${s}"${s === (p.input.sort ?? '') ? html` selected` : ''}>${s || 'default'}</option>`,
  )}</select>
<button type="submit">Search</button>
</form>
${p.outcome && chosen ? html`${results(p.outcome)}${snippets(p.base[chosen.environment], query)}` : ''}
</section>`;
}

/** Runs the playground's search as `key` would: validated like the API, its fixed filters applied. */
export async function runPlayground(
  key: KeyRecord,
  input: PlaygroundInput,
  search: (environment: Environment, query: SearchQuery) => Promise<SearchOutcome>,
): Promise<SearchOutcome | { unavailable: string }> {
  const query = playgroundQuery(input);
  const validate = checkSearch();
  const typed: Record<string, unknown> = {
    ...query,
    ...(query.category ? { category: [query.category] } : {}),
  };
  if (!validate(typed)) {
    return {
      ok: false,
      errors: (validate.errors ?? []).map((e) => ({
        parameter: e.instancePath.replace(/^\//, '').split('/')[0] || 'query',
        message: e.message ?? 'is not valid',
      })),
    };
  }
  const narrowed =
    key.kind === 'publishable' ? applyFixedFilters(typed as SearchQuery, key.fixedFilters) : null;
  if (narrowed && !narrowed.ok) return { ok: false, errors: narrowed.errors };
  try {
    return await search(key.environment, narrowed ? narrowed.query : (typed as SearchQuery));
  } catch {
    return {
      unavailable: `The ${key.environment} environment is not served by this process: try the curl line below.`,
    };
  }
}

let compiled: ReturnType<typeof validatorCompiler> extends (...a: never[]) => infer V ? V : never;
/** The API's own schema of `GET /offers/` parameters, with the same coercion as a query string. */
function checkSearch() {
  compiled ??= validatorCompiler()({
    schema: SearchQuerySchema,
    httpPart: 'querystring',
    method: 'GET',
    url: '/v1/offers/',
  }) as typeof compiled;
  return compiled as ((data: unknown) => boolean) & {
    errors?: { instancePath: string; message?: string }[] | null;
  };
}
