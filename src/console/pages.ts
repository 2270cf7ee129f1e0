import type { KeyApplication } from '../applications/store.js';
import type { AuditEntry } from '../audit/store.js';
import type { KeyRecord } from '../keys/store.js';
import { keyFacts, keyTable } from '../portal/pages.js';
import type { Project } from '../projects/store.js';
import type { UsageDay } from '../usage/service.js';
import { stateBadge } from '../web/badges.js';
import { formatTime } from '../web/format.js';
import { html, type SafeHtml } from '../web/html.js';
import { appLayout, csrfField } from '../web/layout.js';
import { usageChart } from '../web/usage-chart.js';

/** The operator console's pages (SPEC §4, issue 5). Plain forms, no script. */
export interface ConsoleSession {
  who: string;
  csrf: string;
}

const NAV = [
  { href: '/console/applications', label: 'Applications' },
  { href: '/console/keys', label: 'Keys' },
  { href: '/console/projects', label: 'Projects' },
  { href: '/console/developers', label: 'Developers' },
  { href: '/console/audit', label: 'Audit log' },
];

function layout(s: ConsoleSession, title: string, body: SafeHtml, current?: string, flash?: string): string {
  return appLayout({ area: 'console', title, body, flash, session: { ...s, nav: NAV, current } });
}

function searchForm(action: string, q: string, label: string): SafeHtml {
  return html`<form method="get" action="${action}" class="inline" role="search">
<label for="q">${label}</label>
<input id="q" name="q" type="search" value="${q}" maxlength="200">
<button type="submit" class="inline">Search</button>
</form>`;
}

export interface ApplicationView {
  application: KeyApplication;
  project: Project | undefined;
  ownerEmail: string;
}

const STATES = ['pending', 'approved', 'rejected', 'all'] as const;

export function applicationsPage(
  s: ConsoleSession,
  p: { state: (typeof STATES)[number]; items: readonly ApplicationView[]; flash?: string },
): string {
  const row = ({ application: a, project, ownerEmail }: ApplicationView) =>
    html`<tr>
<td>${project ? html`<a href="/console/projects?q=${project.id}">${project.name}</a>` : a.projectId}<br><span class="hint">${ownerEmail}</span></td>
<td>${a.environment}</td>
<td>${a.wantsRefresh ? html`asked${a.refreshReason ? html`: “${a.refreshReason}”` : ''}` : 'no'}</td>
<td>${formatTime(a.createdAt)}</td>
<td>${stateBadge(a.state)}${a.state === 'rejected' ? html`<br>${a.decisionReason ?? ''}` : ''}${a.keyId ? html`<br><a href="/console/keys/${a.keyId}">${a.keyId}</a>` : ''}</td>
<td>${
      a.state === 'pending'
        ? html`<form method="post" action="/console/applications/${a.id}/approve" class="inline">${csrfField(s.csrf)}
<label class="check"><input type="checkbox" name="grantRefresh" value="yes"${a.wantsRefresh ? html` checked` : ''}>grant refresh</label>
<button type="submit" class="inline">Approve</button></form>
<form method="post" action="/console/applications/${a.id}/reject" class="inline">${csrfField(s.csrf)}
<label for="reason-${a.id}">Reason</label><input id="reason-${a.id}" name="reason" type="text" required maxlength="1000">
<button type="submit" class="inline danger">Reject</button></form>`
        : a.decidedAt
          ? html`by ${a.decidedBy ?? ''}, ${formatTime(a.decidedAt)}`
          : ''
    }</td>
</tr>`;
  return layout(
    s,
    'Applications',
    html`<h1>Applications</h1>
<nav aria-label="Filter by state"><p>${STATES.map((st) => html`${st === p.state ? html`<strong aria-current="page">${st}</strong>` : html`<a href="/console/applications?state=${st}">${st}</a>`} `)}</p></nav>
${
  p.items.length === 0
    ? html`<p class="empty">${p.state === 'pending' ? 'No application is waiting. New ones appear here as developers apply.' : 'No application in this state.'}</p>`
    : html`<table><thead><tr><th scope="col">Project</th><th scope="col">Environment</th><th scope="col">Refresh permission</th><th scope="col">Applied</th><th scope="col">State</th><th scope="col">Decision</th></tr></thead><tbody>${p.items.map(row)}</tbody></table>`
}`,
    '/console/applications',
    p.flash,
  );
}

export function keysPage(s: ConsoleSession, p: { q: string; keys: readonly KeyRecord[] }): string {
  return layout(
    s,
    'Keys',
    html`<h1>Keys</h1>
${searchForm('/console/keys', p.q, 'Key id, hint or project id')}
${keyTable(p.keys, '/console/keys')}`,
    '/console/keys',
  );
}

export function keyPage(
  s: ConsoleSession,
  p: {
    key: KeyRecord;
    project: Project | undefined;
    ownerEmail: string;
    usage: readonly UsageDay[];
    flash?: string;
  },
): string {
  const { key } = p;
  const post = (action: string, label: string, danger = false) =>
    html`<form method="post" action="/console/keys/${key.id}/${action}" class="inline">${csrfField(s.csrf)}<button type="submit" class="inline${danger ? ' danger' : ''}">${label}</button></form>`;
  return layout(
    s,
    `Key ${key.id}`,
    html`<h1>Key ${key.id}</h1>
<p class="lead">Project ${p.project ? html`<a href="/console/projects?q=${p.project.id}">${p.project.name}</a>` : key.projectId} · ${p.ownerEmail}</p>
${keyFacts(key)}
<h2>Actions</h2>
${
  key.state === 'active'
    ? html`<p>${key.refreshAllowed ? post('revoke-refresh', 'Withdraw the refresh permission') : post('grant-refresh', 'Grant the refresh permission')}
${post('revoke', 'Revoke this key', true)}</p>
<form method="post" action="/console/keys/${key.id}/plan" class="inline">${csrfField(s.csrf)}
<label for="rate">Plan (requests/s; empty: environment default)</label>
<input id="rate" name="rate" type="number" min="1" max="1000000" value="${key.rateLimitRps ?? ''}">
<button type="submit" class="inline">Set plan</button></form>`
    : html`<p class="empty">This key is revoked; nothing more can be done with it.</p>`
}
<h2>Usage, last 30 days</h2>
${usageChart(p.usage)}`,
    undefined,
    p.flash,
  );
}

export function projectsPage(
  s: ConsoleSession,
  p: { q: string; items: readonly { project: Project; ownerEmail: string; keys: readonly KeyRecord[] }[] },
): string {
  return layout(
    s,
    'Projects',
    html`<h1>Projects</h1>
${searchForm('/console/projects', p.q, 'Project id, name or owner')}
${
  p.items.length === 0
    ? html`<p class="empty">No project matches.</p>`
    : p.items.map(
        ({ project, ownerEmail, keys }) => html`<section>
<h2>${project.name} <span class="hint">${project.id}</span></h2>
<dl class="facts"><dt>Owner</dt><dd>${ownerEmail}</dd><dt>Website</dt><dd>${project.website ?? '—'}</dd>
<dt>Redirect destinations</dt><dd>${project.redirectUris.length === 0 ? 'none' : project.redirectUris.join(', ')}</dd>
<dt>Created</dt><dd>${formatTime(project.createdAt)}</dd></dl>
${keyTable(keys, '/console/keys')}
</section>`,
      )
}`,
    '/console/projects',
  );
}

export function developersPage(
  s: ConsoleSession,
  p: { q: string; items: readonly { id: string; email: string; name: string; createdAt: number }[] },
): string {
  return layout(
    s,
    'Developers',
    html`<h1>Developers</h1>
${searchForm('/console/developers', p.q, 'Developer id, email or name')}
${
  p.items.length === 0
    ? html`<p class="empty">No developer matches.</p>`
    : html`<table><thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Signed up</th></tr></thead><tbody>
${p.items.map((d) => html`<tr><td><a href="/console/projects?q=${d.email}">${d.email}</a></td><td>${d.name}</td><td><code>${d.id}</code></td><td>${formatTime(d.createdAt)}</td></tr>`)}</tbody></table>`
}`,
    '/console/developers',
  );
}

export function auditPage(
  s: ConsoleSession,
  p: { filter: { action: string; actor: string; target: string }; entries: readonly AuditEntry[] },
): string {
  return layout(
    s,
    'Audit log',
    html`<h1>Audit log</h1>
<p class="lead">Every operator and developer action, newest first. Entries are never edited or deleted.</p>
<form method="get" action="/console/audit" class="inline" role="search">
<span class="field"><label for="action">Action</label><input id="action" name="action" type="text" value="${p.filter.action}" maxlength="100" placeholder="key."></span>
<span class="field"><label for="actor">Actor (id or email)</label><input id="actor" name="actor" type="text" value="${p.filter.actor}" maxlength="254"></span>
<span class="field"><label for="target">Target id</label><input id="target" name="target" type="text" value="${p.filter.target}" maxlength="100"></span>
<button type="submit" class="inline">Filter</button>
</form>
${
  p.entries.length === 0
    ? html`<p class="empty">No entry matches.</p>`
    : html`<table><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Target</th><th scope="col">From</th><th scope="col">Details</th></tr></thead><tbody>
${p.entries.map(
  (e) =>
    html`<tr><td class="nowrap">${formatTime(e.at)}</td><td>${e.actorKind}${e.actorEmail ? html`<br>${e.actorEmail}` : ''}</td><td class="nowrap"><code>${e.action}</code></td><td>${e.targetId ? html`${e.targetType ?? ''} <code>${e.targetId}</code>` : '—'}</td><td>${e.clientIp ?? '—'}</td><td><code>${JSON.stringify(e.detail)}</code></td></tr>`,
)}</tbody></table>`
}`,
    '/console/audit',
  );
}
