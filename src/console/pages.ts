import type { KeyApplication } from '../applications/model.js';
import type { AuditEntry } from '../audit/model.js';
import type { KeyRecord } from '../keys/model.js';
import { keyFacts, keyTable } from '../portal/key-views.js';
import type { Project } from '../projects/model.js';
import type { UsageDay } from '../usage/service.js';
import { stateBadge } from '../web/badges.js';
import { confirmationBody } from '../web/confirm.js';
import { emptyEnvironmentHint, type OfferCounts } from '../web/empty-environments.js';
import { formatTime } from '../web/format.js';
import { html, type SafeHtml } from '../web/html.js';
import { appLayout, csrfField } from '../web/layout.js';
import { dataTable } from '../web/table.js';
import { usageChart } from '../web/usage-chart.js';
import type { DeveloperRow, Paged } from './model.js';

/** The operator console's pages (issue 5). Plain forms, no script. */
export interface ConsoleSession {
  who: string;
  csrf: string;
  /** Applications waiting for a decision, shown in the navigation. */
  pending?: number;
}

export const NAV = [
  { href: '/console/applications', label: 'Applications' },
  { href: '/console/keys', label: 'Keys' },
  { href: '/console/projects', label: 'Projects' },
  { href: '/console/developers', label: 'Developers' },
  { href: '/console/search-settings', label: 'Search settings' },
  { href: '/console/audit', label: 'Audit log' },
  { href: '/console/account', label: 'Account' },
];

function layout(s: ConsoleSession, title: string, body: SafeHtml, current?: string, flash?: string): string {
  const nav = NAV.map((n) =>
    n.href === '/console/applications' && s.pending
      ? { ...n, label: `${n.label} (${s.pending} pending)` }
      : n,
  );
  return appLayout({ area: 'console', title, body, flash, session: { ...s, nav, current } });
}

/** A page of the console around `body` (search-settings-page.ts). */
export function consolePage(
  s: ConsoleSession,
  title: string,
  body: SafeHtml,
  current: string,
  flash?: string,
) {
  return layout(s, title, body, current, flash);
}

/** "51–100 of 1 234" and Previous/Next links keeping the list's other parameters. */
function pager(path: string, params: Record<string, string>, p: Paged<unknown>): SafeHtml {
  const from = p.total === 0 ? 0 : (p.page - 1) * p.pageSize + 1;
  const to = Math.min(p.page * p.pageSize, p.total);
  const link = (page: number) => {
    const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== ''));
    if (page > 1) query.set('page', String(page));
    const search = query.toString();
    return search === '' ? path : `${path}?${search}`;
  };
  return html`<nav class="pager" aria-label="Pages"><span>${from === 0 ? 'None' : html`${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')}`}</span>${p.page > 1 ? html` <a rel="prev" href="${link(p.page - 1)}">Previous</a>` : ''}${to < p.total ? html` <a rel="next" href="${link(p.page + 1)}">Next</a>` : ''}</nav>`;
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
  p: {
    state: (typeof STATES)[number];
    items: readonly ApplicationView[];
    counts?: OfferCounts;
    flash?: string;
  },
): string {
  const row = ({ application: a, project, ownerEmail }: ApplicationView) => [
    html`${project ? html`<a href="/console/projects?q=${project.id}">${project.name}</a>` : a.projectId}<br><span class="hint">${ownerEmail}</span>`,
    a.environment,
    a.wantsRefresh ? html`asked${a.refreshReason ? html`: “${a.refreshReason}”` : ''}` : 'no',
    formatTime(a.createdAt),
    html`${stateBadge(a.state)}${a.state === 'rejected' ? html`<br>${a.decisionReason ?? ''}` : ''}${a.keyId ? html`<br><a href="/console/keys/${a.keyId}">${a.keyId}</a>` : ''}`,
    a.state === 'pending'
      ? html`<form method="post" action="/console/applications/${a.id}/approve" class="inline">${csrfField(s.csrf)}
<label class="check"><input type="checkbox" name="grantRefresh" value="yes"${a.wantsRefresh ? html` checked` : ''}>grant refresh</label>
<button type="submit" class="inline">Approve</button></form>
<form method="post" action="/console/applications/${a.id}/reject" class="inline">${csrfField(s.csrf)}
<label for="reason-${a.id}">Reason</label><input id="reason-${a.id}" name="reason" type="text" required maxlength="1000">
<button type="submit" class="inline danger">Reject</button></form>`
      : a.decidedAt
        ? html`by ${a.decidedBy ?? ''}, ${formatTime(a.decidedAt)}`
        : '',
  ];
  return layout(
    s,
    'Applications',
    html`<h1>Applications</h1>
${emptyEnvironmentHint(p.counts ?? {})}
<nav aria-label="Filter by state"><p>${STATES.map((st) => html`${st === p.state ? html`<strong aria-current="page">${st}</strong>` : html`<a href="/console/applications?state=${st}">${st}</a>`} `)}</p></nav>
${
  p.items.length === 0
    ? html`<p class="empty">${p.state === 'pending' ? 'No application is waiting. New ones appear here as developers apply.' : 'No application in this state.'}</p>`
    : dataTable(
        ['Project', 'Environment', 'Refresh permission', 'Applied', 'State', 'Decision'],
        p.items.map(row),
      )
}`,
    '/console/applications',
    p.flash,
  );
}

export function keysPage(
  s: ConsoleSession,
  p: { q: string; keys: readonly KeyRecord[]; paging: Paged<unknown> },
): string {
  return layout(
    s,
    'Keys',
    html`<h1>Keys</h1>
${searchForm('/console/keys', p.q, 'Key id, hint or project id')}
${pager('/console/keys', { q: p.q }, p.paging)}
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
    ? html`<p>${key.kind === 'publishable' ? '' : key.refreshAllowed ? html`<a class="button" href="/console/keys/${key.id}/revoke-refresh">Withdraw the refresh permission…</a>` : post('grant-refresh', 'Grant the refresh permission')}
${key.kind === 'publishable' ? '' : key.writeAllowed ? post('revoke-write', 'Withdraw offers:write') : post('grant-write', 'Grant offers:write')}
<a class="button danger" href="/console/keys/${key.id}/revoke">Revoke this key…</a></p>
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
  p: {
    q: string;
    items: readonly { project: Project; ownerEmail: string; keys: readonly KeyRecord[] }[];
    paging: Paged<unknown>;
  },
): string {
  return layout(
    s,
    'Projects',
    html`<h1>Projects</h1>
${searchForm('/console/projects', p.q, 'Project id, name or owner')}
${pager('/console/projects', { q: p.q }, p.paging)}
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

/** Issue 13: clears a sign-in lockout at once (login-throttle.ts `unlock`); audited. */
function unlockForm(s: ConsoleSession, flash: string | undefined): SafeHtml {
  return html`<h2>Sign-in lockouts</h2>
${flash ? html`<p class="flash" role="status">${flash}</p>` : ''}
<form method="post" action="/console/unlock" class="inline">${csrfField(s.csrf)}
<span class="field"><label for="unlock-area">Account of</label><select id="unlock-area" name="area">
<option value="connect:production">End user (production)</option><option value="connect:testing">End user (testing)</option>
<option value="portal">Developer (portal)</option><option value="console">Operator (console)</option></select></span>
<span class="field"><label for="unlock-email">Email</label><input id="unlock-email" name="email" type="email" maxlength="254" required></span>
<button type="submit" class="inline">Unlock sign-in</button></form>`;
}

export function developersPage(
  s: ConsoleSession,
  p: { q: string; paging: Paged<DeveloperRow>; flash?: string },
): string {
  const items = p.paging.items;
  return layout(
    s,
    'Developers',
    html`<h1>Developers</h1>
${unlockForm(s, p.flash)}
<p class="meta"><a href="/console/developer-access">End a developer’s sessions or remove their two-factor sign-in</a></p>
${searchForm('/console/developers', p.q, 'Developer id, email or name')}
${pager('/console/developers', { q: p.q }, p.paging)}
${
  items.length === 0
    ? html`<p class="empty">No developer matches.</p>`
    : dataTable(
        ['Email', 'Name', 'Id', 'Signed up', 'State'],
        items.map((d) => [
          html`<a href="/console/projects?q=${d.email}">${d.email}</a>`,
          d.name,
          html`<code>${d.id}</code>`,
          formatTime(d.createdAt),
          d.disabledAt === null ? 'active' : html`disabled ${formatTime(d.disabledAt)}`,
        ]),
      )
}`,
    '/console/developers',
  );
}

export function auditPage(
  s: ConsoleSession,
  p: { filter: { action: string; actor: string; target: string }; paging: Paged<AuditEntry> },
): string {
  const entries = p.paging.items;
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
${pager('/console/audit', p.filter, p.paging)}
${
  entries.length === 0
    ? html`<p class="empty">No entry matches.</p>`
    : dataTable(
        ['When', 'Who', 'What', 'Target', 'From', 'Details'],
        entries.map((e) => [
          { class: 'nowrap', content: formatTime(e.at) },
          html`${e.actorKind}${e.actorEmail ? html`<br>${e.actorEmail}` : ''}`,
          { class: 'nowrap', content: html`<code>${e.action}</code>` },
          e.targetId ? html`${e.targetType ?? ''} <code>${e.targetId}</code>` : '—',
          e.clientIp ?? '—',
          html`<code>${JSON.stringify(e.detail)}</code>`,
        ]),
      )
}`,
    '/console/audit',
  );
}

/** What each destructive key action does, for its confirmation page (issue 15). */
const DESTRUCTIVE = {
  revoke: {
    title: (id: string) => `Revoke key ${id}?`,
    consequences: html`Every call with this key is refused within a second, on every instance, and every refresh token it obtained is revoked. <strong>This cannot be undone.</strong>`,
    button: 'Revoke the key',
  },
  'revoke-refresh': {
    title: (id: string) => `Withdraw the refresh permission of ${id}?`,
    consequences: html`Every refresh token this key obtained is revoked at once, and the access tokens issued from them stop within a second: the project's end users must sign in again. The permission can be granted again later, but the revoked tokens stay revoked.`,
    button: 'Withdraw the permission',
  },
} as const;
export type DestructiveKeyAction = keyof typeof DESTRUCTIVE;

export function confirmKeyActionPage(
  s: ConsoleSession,
  p: { key: KeyRecord; action: DestructiveKeyAction; error?: string },
): string {
  const what = DESTRUCTIVE[p.action];
  return layout(
    s,
    what.title(p.key.id),
    confirmationBody({
      title: what.title(p.key.id),
      consequences: what.consequences,
      action: `/console/keys/${p.key.id}/${p.action}`,
      csrf: s.csrf,
      expected: p.key.id,
      button: what.button,
      cancelHref: `/console/keys/${p.key.id}`,
      error: p.error,
    }),
    '/console/keys',
  );
}
