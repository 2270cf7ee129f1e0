import type { Environment } from '../platform/environment.js';
import { html, type SafeHtml } from './html.js';

/**
 * An environment without offers says so (issue 25), with the commands that load some: on the
 * portal's project page and on the console's first page.
 */
export type OfferCounts = Partial<Record<Environment, number>>;

/** Both environments' offer counts; none without a way to count (a test app without offers). */
export async function offerCounts(
  count?: (environment: Environment) => Promise<number>,
): Promise<OfferCounts> {
  const counts: OfferCounts = {};
  for (const env of ['testing', 'production'] as const) {
    if (count) counts[env] = await count(env);
  }
  return counts;
}

/** Environments with no offer yet, and how to load some (issue 25: empty says so). */
export function emptyEnvironmentHint(counts: OfferCounts): SafeHtml {
  const empty = (Object.entries(counts) as [Environment, number][]).filter(([, n]) => n === 0);
  if (empty.length === 0) return html``;
  return html`<div class="notice" role="status" id="empty-environments">${empty.map(
    ([
      env,
    ]) => html`<p>The <strong>${env}</strong> environment has no offers yet: searches there answer nothing.
Load offers from a file with <code>vitrine import --env ${env} offers.ndjson</code> (the operator), or over HTTP with
<code>POST {base_url}/offers/import</code> and a key granted <code>offers:write</code> (docs/import.md).</p>`,
  )}</div>`;
}
