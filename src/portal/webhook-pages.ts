import type { Project } from '../projects/model.js';
import { stateBadge } from '../web/badges.js';
import { formatTime } from '../web/format.js';
import { html } from '../web/html.js';
import { csrfField } from '../web/layout.js';
import { type Cell, dataTable } from '../web/table.js';
import type { WebhookDelivery, WebhookEndpoint } from '../webhooks/model.js';
import { SUBSCRIBABLE_EVENTS } from '../webhooks/service.js';
import { layout, type PortalSession, secretField } from './pages.js';

/**
 * The portal's Webhooks page of a project (issue 24): its endpoints of both environments, the
 * form that adds one, and per endpoint its delivery log (event, attempts, status, latency) with
 * "Resend", rotation of the signing secret, a test event and removal.
 */
export function webhooksPage(
  s: PortalSession,
  p: {
    project: Project;
    endpoints: readonly WebhookEndpoint[];
    error?: string;
    url?: string;
    flash?: string;
  },
): string {
  const base = `/portal/projects/${p.project.id}/webhooks`;
  return layout(
    s,
    `Webhooks · ${p.project.name}`,
    html`<h1>Webhooks</h1>
<p class="lead">Events of <a href="/portal/projects/${p.project.id}">${p.project.name}</a>, POSTed to your endpoints and signed (<a href="https://www.standardwebhooks.com/">Standard Webhooks</a>): check every request's signature with its endpoint's secret.</p>
${
  p.endpoints.length === 0
    ? html`<p class="empty">No endpoint yet.</p>`
    : dataTable(
        ['Endpoint', 'Environment', 'Events', 'State', 'Added'],
        p.endpoints.map((e) => [
          html`<a href="${base}/${e.id}">${e.url}</a><br><code>${e.id}</code>`,
          e.environment,
          e.eventTypes.length ? e.eventTypes.join(', ') : 'all',
          html`${stateBadge(e.state)}${e.disabledReason ? html`<br><span class="hint">${e.disabledReason}</span>` : ''}`,
          formatTime(e.createdAt),
        ]),
      )
}
<h2>Add an endpoint</h2>
${p.error ? html`<div class="alert" role="alert" id="form-error">${p.error}</div>` : ''}
<form method="post" action="${base}" class="stack">
${csrfField(s.csrf)}
<label for="environment">Events of</label>
<select id="environment" name="environment">
<option value="testing">testing (http allowed)</option>
<option value="production">production (https only)</option>
</select>
<label for="url">URL</label>
<input id="url" name="url" type="url" maxlength="2048" required value="${p.url ?? ''}" placeholder="https://example.com/webhooks/vitrine">
<fieldset><legend>Events <span class="hint">(none ticked: all)</span></legend>
${SUBSCRIBABLE_EVENTS.map((t) => html`<label class="check"><input type="checkbox" name="event.${t}" value="yes">${t}</label>`)}
</fieldset>
<button type="submit">Add endpoint</button>
</form>`,
    undefined,
    p.flash,
  );
}

function deliveryRow(base: string, d: WebhookDelivery, csrf: string): Cell[] {
  return [
    html`${d.eventType}<br><code>${d.id}</code>`,
    formatTime(d.createdAt),
    html`${stateBadge(d.state)}${d.state === 'pending' && d.attempts > 0 ? html`<br><span class="hint">next ${formatTime(d.nextAttemptAt)}</span>` : ''}`,
    d.attempts,
    html`${d.lastStatus ?? '—'}${d.lastError && d.lastStatus === null ? html`<br><span class="hint">${d.lastError}</span>` : ''}`,
    d.lastLatencyMs === null ? '—' : `${d.lastLatencyMs} ms`,
    d.state === 'pending'
      ? ''
      : html`<form method="post" action="${base}/deliveries/${d.id}/resend" class="inline">${csrfField(csrf)}<button type="submit" class="inline">Resend</button></form>`,
  ];
}

export function endpointPage(
  s: PortalSession,
  p: { project: Project; endpoint: WebhookEndpoint; deliveries: readonly WebhookDelivery[]; flash?: string },
): string {
  const { endpoint: e } = p;
  const base = `/portal/projects/${p.project.id}/webhooks/${e.id}`;
  const post = (action: string, label: string) =>
    html`<form method="post" action="${base}/${action}" class="inline">${csrfField(s.csrf)}<button type="submit" class="inline">${label}</button></form>`;
  return layout(
    s,
    `Webhook ${e.id}`,
    html`<h1>Webhook endpoint</h1>
<dl class="facts">
<dt>URL</dt><dd><code>${e.url}</code></dd>
<dt>Id</dt><dd><code>${e.id}</code></dd>
<dt>Environment</dt><dd>${e.environment}</dd>
<dt>Events</dt><dd>${e.eventTypes.length ? e.eventTypes.join(', ') : 'all'}</dd>
<dt>State</dt><dd>${e.state}${e.disabledReason ? html`: ${e.disabledReason}` : ''}</dd>
${e.previousSecretUntil ? html`<dt>Previous secret</dt><dd>signs too until ${formatTime(e.previousSecretUntil)}</dd>` : ''}
</dl>
<p class="actions">${post('test', 'Send a test event')} ${post('rotate', 'Rotate the signing secret')} ${post('remove', 'Remove this endpoint')}</p>
<h2>Recent deliveries</h2>
${
  p.deliveries.length === 0
    ? html`<p class="empty">Nothing sent yet.</p>`
    : dataTable(
        ['Event', 'Created', 'State', 'Attempts', 'Status', 'Latency', ''],
        p.deliveries.map((d) => deliveryRow(base, d, s.csrf)),
      )
}
<p><a href="/portal/projects/${p.project.id}/webhooks">All webhooks of ${p.project.name}</a></p>`,
    undefined,
    p.flash,
  );
}

/** The signing secret, shown once (after adding an endpoint or rotating its secret). */
export function webhookSecretPage(
  s: PortalSession,
  p: { project: Project; endpoint: WebhookEndpoint; secret: string; rotated: boolean },
): string {
  return layout(
    s,
    'Signing secret',
    html`<h1>Signing secret of ${p.endpoint.url}</h1>
<div class="warning" role="alert"><strong>Store this secret now.</strong> This is the only time it is shown; Vitrine keeps it encrypted, to sign.${p.rotated ? ' The previous secret also signs for 24 hours (both signatures are sent), so deploy this one now.' : ''}</div>
${secretField('Signing secret', p.secret)}
<p><a href="/portal/projects/${p.project.id}/webhooks/${p.endpoint.id}">Go to the endpoint</a></p>
<script src="/portal/assets/copy.js" defer></script>`,
  );
}
