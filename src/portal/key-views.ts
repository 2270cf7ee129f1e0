import type { KeyRecord } from '../keys/model.js';
import { describeFixedFilters } from '../keys/publishable.js';
import { keyScopes } from '../keys/scopes.js';
import { stateBadge } from '../web/badges.js';
import { formatTime } from '../web/format.js';
import { html, type SafeHtml } from '../web/html.js';
import { dataTable } from '../web/table.js';

/** A list of keys and one key's facts: the portal's and the console's key pages share them. */
export function keyTable(keys: readonly KeyRecord[], base = '/portal/keys'): SafeHtml {
  if (keys.length === 0) return html`<p class="empty">No key yet.</p>`;
  return dataTable(
    ['Key', 'Kind', 'Environment', 'State', 'Refresh', 'Created', 'Last used'],
    keys.map((k) => [
      html`<a href="${base}/${k.id}">${k.id}</a><br><code>${k.hint}</code>`,
      k.kind === 'publishable'
        ? html`publishable<br><span class="hint">${k.allowedOrigins.join(' ')}${describeFixedFilters(k.fixedFilters).length > 0 ? html`<br>${describeFixedFilters(k.fixedFilters).join(', ')}` : ''}</span>`
        : k.writeAllowed
          ? 'secret, offers:write'
          : 'secret',
      k.environment,
      stateBadge(k.state),
      k.refreshAllowed ? 'granted' : 'no',
      formatTime(k.createdAt),
      formatTime(k.lastUsedAt),
    ]),
  );
}

export function keyFacts(k: KeyRecord): SafeHtml {
  return html`<dl class="facts">
<dt>Key id</dt><dd><code>${k.id}</code></dd>
<dt>Looks like</dt><dd><code>${k.hint}</code></dd>
<dt>Environment</dt><dd>${k.environment}</dd>
<dt>State</dt><dd>${stateBadge(k.state)}${k.revokedAt ? html` since ${formatTime(k.revokedAt)}` : ''}</dd>
<dt>Kind</dt><dd>${k.kind === 'publishable' ? 'publishable (browsers and apps: search only)' : 'secret (servers)'}</dd>
${
  k.kind === 'publishable'
    ? html`<dt>Allowed origins</dt><dd>${k.allowedOrigins.map((o, i) => html`${i > 0 ? ', ' : ''}<code>${o}</code>`)}</dd>
<dt>Fixed filters</dt><dd>${describeFixedFilters(k.fixedFilters).join(', ') || 'none'}</dd>`
    : html`<dt>Scopes</dt><dd>${keyScopes(k).join(', ')}</dd>
`
}<dt>Refresh permission</dt><dd>${k.refreshAllowed ? 'granted' : 'not granted'}</dd>
<dt>Plan</dt><dd>${k.rateLimitRps === null ? 'environment default' : `${k.rateLimitRps} requests/s`}</dd>
<dt>Created</dt><dd>${formatTime(k.createdAt)}</dd>
<dt>Last used</dt><dd>${formatTime(k.lastUsedAt)}</dd>
</dl>`;
}
