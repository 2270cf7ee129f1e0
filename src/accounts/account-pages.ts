import type { WebSession } from '../sessions/model.js';
import { html, SafeHtml } from '../web/html.js';
import { appLayout } from '../web/layout.js';
import type { Enrolment } from './second-factor.js';

type Area = 'portal' | 'console';
export interface AreaView {
  area: Area;
  who: string;
  csrf: string;
  nav: readonly { href: string; label: string }[];
}

const page = (v: AreaView, title: string, body: SafeHtml, flash?: string) =>
  appLayout({
    area: v.area,
    title,
    body,
    flash,
    session: { who: v.who, csrf: v.csrf, nav: v.nav, current: `/${v.area}/account` },
  });
/** Pages of a session whose second step is due: no navigation (it leads nowhere yet). */
const bare = (v: AreaView, title: string, body: SafeHtml) =>
  appLayout({ area: v.area, title, body, session: { who: v.who, csrf: v.csrf, nav: [] } });
const alert = (error?: string) =>
  error ? html`<div class="alert" role="alert" id="form-error">${error}</div>` : '';
const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;
const codeField = (label: string, hint: string, focus = true) => html`<label for="code">${label}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="24" aria-describedby="code-hint"${focus ? html` autofocus` : ''}>
<p class="hint" id="code-hint">${hint}</p>`;

/** The second step of a sign-in: a code from the app, or a recovery code. */
export function codeStepPage(v: AreaView, error?: string): string {
  return bare(
    v,
    'Two-factor sign-in',
    html`<div class="narrow"><h1>Enter your code</h1>
<p class="lead">Open your authenticator app and type the 6-digit code it shows for Vitrine.</p>
${alert(error)}
<form method="post" action="/${v.area}/two-factor" class="stack" novalidate>
${csrfField(v.csrf)}
${codeField('Code', 'Lost your phone? Type one of your recovery codes instead (xxxx-xxxx-xxxx-xxxx).')}
<button type="submit">Verify</button>
</form></div>`,
  );
}

/** Enrolment: the QR code (inline SVG, nothing fetched), the secret to type by hand, the first code. */
export function enrolPage(v: AreaView, e: Enrolment, forced: boolean, error?: string): string {
  const body = html`<div class="narrow"><h1>Set up two-factor sign-in</h1>
${forced ? html`<div class="notice" role="status">This console requires two-factor sign-in: set it up to continue.</div>` : ''}
<p class="lead">Scan this code with an authenticator app (1Password, Google Authenticator, Authy…), then type the 6-digit code it shows.</p>
<figure class="qr" aria-label="QR code of the authenticator key">${new SafeHtml(e.qrSvg)}</figure>
<p class="meta">Cannot scan? Type this key: <code id="totp-secret">${e.secret.match(/.{1,4}/g)?.join(' ') ?? e.secret}</code></p>
${alert(error)}
<form method="post" action="/${v.area}/two-factor/confirm" class="stack" novalidate>
${csrfField(v.csrf)}
${codeField('Code from the app', 'Six digits; a new one every 30 seconds.')}
<button type="submit">Turn on two-factor sign-in</button>
</form></div>`;
  return forced ? bare(v, 'Set up two-factor sign-in', body) : page(v, 'Set up two-factor sign-in', body);
}

/** The ten recovery codes, shown this once. */
export function recoveryCodesPage(v: AreaView, codes: string[]): string {
  return bare(
    v,
    'Your recovery codes',
    html`<div class="narrow"><h1>Two-factor sign-in is on</h1>
<p class="lead">Keep these recovery codes somewhere safe (a password manager). Each one signs you in once if you lose your phone. They are shown only now.</p>
<ul class="codes" id="recovery-codes">${codes.map((c) => html`<li><code>${c}</code></li>`)}</ul>
<p><a class="button" href="/${v.area}/">I have saved them — continue</a></p></div>`,
  );
}

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);

/** The account's security: two-factor sign-in and its live sessions. */
export function accountPage(
  v: AreaView,
  p: { email: string; enrolled: boolean; recoveryCodesLeft: number; sessions: WebSession[]; current: string },
  flash?: string,
  error?: string,
): string {
  return page(
    v,
    'Account',
    html`<h1>Account</h1>
<p class="lead">${p.email}</p>
${alert(error)}
<section aria-labelledby="tfa"><h2 id="tfa">Two-factor sign-in</h2>
${
  p.enrolled
    ? html`<p>On. ${p.recoveryCodesLeft} recovery code${p.recoveryCodesLeft === 1 ? '' : 's'} left.</p>
<form method="post" action="/${v.area}/two-factor/remove" class="stack narrow" novalidate>
${csrfField(v.csrf)}
${codeField('Current code (or a recovery code)', 'Needed to turn two-factor sign-in off.', false)}
<button type="submit" class="danger">Turn off two-factor sign-in</button>
</form>`
    : html`<p>Off. With it on, signing in needs your password and a code from an app on your phone.</p>
<form method="post" action="/${v.area}/two-factor/enrol">${csrfField(v.csrf)}<button type="submit">Set up two-factor sign-in</button></form>`
}
</section>
<section aria-labelledby="sessions"><h2 id="sessions">Sessions</h2>
<ul class="sessions">${p.sessions.map(
      (s) => html`<li><p><strong>${s.userAgent || 'Unknown browser'}</strong></p>
<p class="meta">Signed in ${when(s.createdAt)} UTC · last seen ${when(s.lastSeenAt)} UTC · from ${s.ip || 'an unknown address'}</p>
${
  s.id === p.current
    ? html`<p><strong>This session</strong></p>`
    : html`<form method="post" action="/${v.area}/account/sessions/${s.id}/end">${csrfField(v.csrf)}<button type="submit" class="link">End this session</button></form>`
}</li>`,
    )}</ul>
</section>`,
    flash,
  );
}
