import type { KeyRecord } from '../keys/model.js';
import type { Environment } from '../platform/environment.js';
import type { Project } from '../projects/model.js';
import { html, type SafeHtml } from '../web/html.js';
import { csrfField } from '../web/layout.js';

/**
 * The portal's publishable keys (issue 16): the creation form on the project page, and the
 * ready-to-paste browser snippet shown with a new key (with the key in it) and on the key's
 * page (with a placeholder: only the key's hash is kept).
 */
export function publishableKeyForm(project: Project, csrf: string): SafeHtml {
  return html`<h2>Create a publishable key</h2>
<p>For search from a browser or a mobile app: issued at once, no approval. It can only search, only
from the origins you list, and only within the filters you fix. Keep your secret key on your server.</p>
<form method="post" action="/portal/projects/${project.id}/publishable-keys" class="stack">
${csrfField(csrf)}
<label for="pubEnvironment">Key for: testing or production</label>
<select id="pubEnvironment" name="environment">
<option value="testing">testing</option>
<option value="production">production</option>
</select>
<label for="origins">Allowed origins <span class="hint">(one per line, exactly <code>https://shop.example</code>; http only on localhost)</span></label>
<textarea id="origins" name="origins" rows="3" maxlength="4000" required></textarea>
<label for="filters">Fixed filters <span class="hint">(optional, one <code>name=value</code> per line: category, tag, city, country, currency, attr.NAME of a declared attribute)</span></label>
<textarea id="filters" name="filters" rows="2" maxlength="2000"></textarea>
<button type="submit">Create publishable key</button>
</form>`;
}

/** A browser `fetch` of the search API with a publishable key, ready to paste. */
export function browserSnippet(baseUrl: string, key: string): string {
  return `const response = await fetch(
  '${baseUrl}/offers/?' + new URLSearchParams({ q: 'chair', limit: '20' }),
  { headers: { 'X-Api-Key': '${key}' } },
);
if (!response.ok) throw new Error((await response.json()).detail);
const { data, total, nextCursor } = await response.json();`;
}

export function snippetSection(
  baseUrls: Readonly<Record<Environment, string>> | undefined,
  key: KeyRecord,
  secret: string | null,
): SafeHtml {
  if (!baseUrls || key.kind !== 'publishable') return html``;
  const shown = secret ?? `${key.hint.replace('…', '')}… (your publishable key)`;
  return html`<h2>Search from a page</h2>
<p>From ${key.allowedOrigins.map((o, i) => html`${i > 0 ? ', ' : ''}<code>${o}</code>`)}:</p>
<pre class="snippet"><code id="snippet">${browserSnippet(baseUrls[key.environment], shown)}</code></pre>`;
}
