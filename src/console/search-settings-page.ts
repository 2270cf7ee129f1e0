import type { FastifyInstance } from 'fastify';
import type { Environment } from '../platform/environment.js';
import {
  ATTRIBUTE_TYPES,
  type AttributeDeclaration,
  type AttributeType,
  formatRankBy,
  parseRankBy,
  type SearchSettings,
} from '../search-settings/model.js';
import type { SearchSettingsService } from '../search-settings/service.js';
import type { Synonym } from '../synonyms/model.js';
import type { SynonymService } from '../synonyms/service.js';
import type { Flashes } from '../web/flash.js';
import { html, type SafeHtml } from '../web/html.js';
import { csrfField } from '../web/layout.js';
import type { SessionArea } from '../web/session-area.js';
import { dataTable } from '../web/table.js';

/**
 * The console's "Search settings" (issue 23): per environment, the declared attributes, a form to
 * declare or change one and a button to remove one (the service audits and re-indexes), the
 * ranking tie-break, and the synonym rules (audited, applied without a re-index). Each part of
 * the page is a section of its own.
 */
export type SearchSettingsFlash =
  | 'attribute-set'
  | 'attribute-removed'
  | 'ranking-set'
  | 'synonym-added'
  | 'synonym-removed';
export const SEARCH_SETTINGS_FLASHES: Record<SearchSettingsFlash, string> = {
  'attribute-set': 'Attribute saved; every serving process re-indexes in the background.',
  'attribute-removed': 'Attribute removed; every serving process re-indexes in the background.',
  'ranking-set': 'Ranking saved; every serving process re-indexes in the background.',
  'synonym-added': 'Synonyms added; searches apply them within a second, without re-indexing.',
  'synonym-removed': 'Synonyms removed; searches stop applying them within a second.',
};

const ENVIRONMENTS = ['production', 'testing'] as const satisfies readonly Environment[];
const yes = (b: boolean) => (b ? 'yes' : '—');

function attributesSection(
  csrf: string,
  environment: Environment,
  attributes: readonly AttributeDeclaration[],
): SafeHtml {
  const rows = attributes.map((a) => [
    html`<code>attr.${a.name}</code>`,
    a.type,
    yes(a.facet),
    yes(a.sort),
    yes(a.searchable),
    html`<form method="post" action="/console/search-settings/${environment}/attributes/${a.name}/remove" class="inline">${csrfField(csrf)}<button type="submit" class="inline danger">Remove</button></form>`,
  ]);
  const types = ATTRIBUTE_TYPES.map((t) => html`<option value="${t}">${t}</option>`);
  return html`<section aria-labelledby="attributes-${environment}">
<h2 id="attributes-${environment}">Attributes of ${environment}</h2>
${attributes.length === 0 ? html`<p>None declared: searches know only the built-in fields.</p>` : dataTable(['Name', 'Type', 'Facet', 'Sort', 'Searchable', ''], rows)}
<form method="post" action="/console/search-settings/${environment}/attributes">${csrfField(csrf)}
<label for="name-${environment}">Name</label><input id="name-${environment}" name="name" type="text" required maxlength="40" pattern="[a-zA-Z][a-zA-Z0-9_]{0,39}">
<label for="type-${environment}">Type</label><select id="type-${environment}" name="type">${types}</select>
<label class="check"><input type="checkbox" name="facet" value="yes">facet (counts; numbers: min, max, avg, sum)</label>
<label class="check"><input type="checkbox" name="sort" value="yes">sort (numbers, booleans)</label>
<label class="check"><input type="checkbox" name="searchable" value="yes">searchable (strings: q matches its words)</label>
<button type="submit">Declare or change</button></form>
</section>`;
}

/** The ranking tie-break: what orders matches the text rules leave tied, before the newest. */
function rankingSection(csrf: string, environment: Environment, settings: SearchSettingsView): SafeHtml {
  const current = settings.rankBy ? formatRankBy(settings.rankBy) : null;
  const sortable = settings.attributes.filter((a) => a.type === 'number' && a.sort);
  const options = sortable.flatMap((a) =>
    (['desc', 'asc'] as const).map((d) => {
      const value = `attr.${a.name}:${d}`;
      const label = `${a.name}, ${d === 'desc' ? 'greatest' : 'least'} first`;
      return value === current
        ? html`<option value="${value}" selected>${label}</option>`
        : html`<option value="${value}">${label}</option>`;
    }),
  );
  return html`<section aria-labelledby="ranking-${environment}">
<h2 id="ranking-${environment}">Ranking of ${environment}</h2>
<p>Ties after the text rules: ${current ? html`<code>${current}</code>, then the newest` : 'the newest first'}.</p>
<form method="post" action="/console/search-settings/${environment}/ranking">${csrfField(csrf)}
<label for="rank-by-${environment}">Tie-break (a sort number attribute)</label><select id="rank-by-${environment}" name="rankBy"><option value="none">none: newest first</option>${options}</select>
<button type="submit">Save ranking</button></form>
</section>`;
}

/** The synonym rules of an environment, as `vitrine synonyms list|add|remove` (no re-index). */
function synonymsSection(csrf: string, environment: Environment, synonyms: readonly Synonym[]): SafeHtml {
  const rows = synonyms.map((r) => [
    r.oneWay
      ? html`<code>${r.words[0] ?? ''}</code> finds ${r.words.slice(1).map((w, i) => html`${i > 0 ? ', ' : ''}<code>${w}</code>`)}`
      : html`${r.words.map((w, i) => html`${i > 0 ? ' = ' : ''}<code>${w}</code>`)}`,
    r.oneWay ? 'one-way' : 'each finds the others',
    html`<form method="post" action="/console/search-settings/${environment}/synonyms/${r.id}/remove" class="inline">${csrfField(csrf)}<button type="submit" class="inline danger">Remove</button></form>`,
  ]);
  return html`<section aria-labelledby="synonyms-${environment}">
<h2 id="synonyms-${environment}">Synonyms of ${environment}</h2>
${rows.length === 0 ? html`<p>None: a word finds only itself (and its typos, stems, compounds).</p>` : dataTable(['Words', 'Kind', ''], rows)}
<form method="post" action="/console/search-settings/${environment}/synonyms">${csrfField(csrf)}
<label for="words-${environment}">Words, separated by commas (a word may be several: television set)</label><input id="words-${environment}" name="words" type="text" required maxlength="2100" placeholder="tv, television, television set">
<label class="check"><input type="checkbox" name="oneWay" value="yes">one-way: the first word finds the others, not the reverse</label>
<button type="submit">Add synonyms</button></form>
</section>`;
}

/** What the page shows of one environment's settings. */
export type SearchSettingsView = Pick<SearchSettings, 'attributes' | 'rankBy'> & {
  synonyms?: readonly Synonym[];
};

export function searchSettingsBody(
  csrf: string,
  settings: Readonly<Record<Environment, SearchSettingsView>>,
): SafeHtml {
  return html`<h1>Search settings</h1>
<p>What search knows of offers’ <code>attributes</code>. A change is audited and re-indexes the environment in the background; searches keep the previous declarations until then.</p>
${ENVIRONMENTS.map((e) => html`${attributesSection(csrf, e, settings[e].attributes)}${rankingSection(csrf, e, settings[e])}${synonymsSection(csrf, e, settings[e].synonyms ?? [])}`)}`;
}

/** The page's routes, inside the console's session area (its guard, CSRF and error pages). */
export function registerSearchSettingsPage(
  app: FastifyInstance,
  deps: {
    area: SessionArea;
    flash: Flashes<SearchSettingsFlash>;
    settings: SearchSettingsService;
    synonyms: Pick<SynonymService, 'list' | 'add' | 'remove'>;
    render: (request: Parameters<SessionArea['signed']>[0], body: SafeHtml, flash?: string) => string;
  },
): void {
  const { area, flash, settings } = deps;
  const environmentOf = (raw: unknown): Environment | null => ENVIRONMENTS.find((e) => e === raw) ?? null;
  app.get('/console/search-settings', async (request, reply) => {
    const [production, testing] = await Promise.all(
      ENVIRONMENTS.map(async (e) => ({ ...(await settings.read(e)), synonyms: await deps.synonyms.list(e) })),
    );
    const s = area.signed(request);
    const none: SearchSettingsView = { attributes: [], rankBy: null };
    const body = searchSettingsBody(s.session.csrfToken, {
      production: production ?? none,
      testing: testing ?? none,
    });
    return area.page(reply, 200, deps.render(request, body, flash.take(request, reply)));
  });
  app.post('/console/search-settings/:environment/attributes', async (request, reply) => {
    const environment = environmentOf((request.params as { environment?: string }).environment);
    if (!environment) return area.fail(reply, 'not_found', 'There is no such environment.');
    const form = area.form(request);
    await settings.setAttribute(area.signed(request).actor, environment, {
      name: (form.name ?? '').trim(),
      type: (form.type ?? '') as AttributeType,
      facet: form.facet === 'yes',
      sort: form.sort === 'yes',
      searchable: form.searchable === 'yes',
    });
    return flash.redirect(reply, '/console/search-settings', 'attribute-set');
  });
  app.post('/console/search-settings/:environment/ranking', async (request, reply) => {
    const environment = environmentOf((request.params as { environment?: string }).environment);
    if (!environment) return area.fail(reply, 'not_found', 'There is no such environment.');
    const raw = (area.form(request).rankBy ?? '').trim();
    const rankBy = raw === 'none' ? null : parseRankBy(raw);
    if (raw !== 'none' && rankBy === null)
      return area.fail(reply, 'invalid', 'The tie-break is attr.NAME:desc, attr.NAME:asc or none.');
    await settings.setRankBy(area.signed(request).actor, environment, rankBy);
    return flash.redirect(reply, '/console/search-settings', 'ranking-set');
  });
  app.post('/console/search-settings/:environment/synonyms', async (request, reply) => {
    const environment = environmentOf((request.params as { environment?: string }).environment);
    if (!environment) return area.fail(reply, 'not_found', 'There is no such environment.');
    const form = area.form(request);
    const words = (form.words ?? '')
      .split(',')
      .map((w) => w.trim())
      .filter((w) => w.length > 0);
    await deps.synonyms.add(area.signed(request).actor, environment, words, form.oneWay === 'yes');
    return flash.redirect(reply, '/console/search-settings', 'synonym-added');
  });
  app.post('/console/search-settings/:environment/synonyms/:id/remove', async (request, reply) => {
    const params = request.params as { environment?: string; id?: string };
    const environment = environmentOf(params.environment);
    if (!environment) return area.fail(reply, 'not_found', 'There is no such environment.');
    await deps.synonyms.remove(area.signed(request).actor, environment, String(params.id ?? ''));
    return flash.redirect(reply, '/console/search-settings', 'synonym-removed');
  });
  app.post('/console/search-settings/:environment/attributes/:name/remove', async (request, reply) => {
    const params = request.params as { environment?: string; name?: string };
    const environment = environmentOf(params.environment);
    if (!environment) return area.fail(reply, 'not_found', 'There is no such environment.');
    await settings.removeAttribute(area.signed(request).actor, environment, String(params.name ?? ''));
    return flash.redirect(reply, '/console/search-settings', 'attribute-removed');
  });
}
