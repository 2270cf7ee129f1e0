import { html, type SafeHtml } from './html.js';

/**
 * The layout of the portal and the console: a header with the area's name, its navigation and a
 * sign-out button (a POST form with the session's CSRF token), then the page. No script.
 */
export interface AppPage {
  area: 'portal' | 'console';
  title: string;
  body: SafeHtml;
  /** Signed in: who, the navigation and the CSRF token of the sign-out form. */
  session?: { who: string; csrf: string; nav: readonly { href: string; label: string }[]; current?: string };
  flash?: string;
}

/** Doctype and head of every page: no referrer, the local favicon and stylesheet, nothing else. */
export function documentHead(title: string): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/vitrine.css">
</head>`;
}

/** Name, email and new-password fields of a sign-up form (auth server and portal alike). */
export function newAccountFields(p: { name?: string; email?: string; minPasswordLength: number }): SafeHtml {
  return html`<label for="name">Name <span class="hint">(optional)</span></label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="100" value="${p.name ?? ''}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${p.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${p.minPasswordLength}" maxlength="256" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least ${p.minPasswordLength} characters.</p>`;
}

const AREA_NAMES = { portal: 'Developer portal', console: 'Operator console' } as const;

export function appLayout(p: AppPage): string {
  const s = p.session;
  return html`${documentHead(`${p.title} · Vitrine ${AREA_NAMES[p.area]}`)}
<body class="app">
<a class="skip" href="#content">Skip to content</a>
<header class="topbar">
<p class="brand"><a href="/${p.area}/">Vitrine</a> <span class="area">${AREA_NAMES[p.area]}</span></p>
${
  s
    ? html`<nav aria-label="Main"><ul>${s.nav.map(
        (n) =>
          html`<li><a href="${n.href}"${n.href === s.current ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
      )}</ul></nav>
<form method="post" action="/${p.area}/signout" class="signout">
<input type="hidden" name="csrf" value="${s.csrf}">
<span class="who">${s.who}</span> <button type="submit" class="link">Sign out</button>
</form>`
    : ''
}
</header>
<main class="page" id="content">
${p.flash ? html`<div class="notice" role="status">${p.flash}</div>` : ''}
${p.body}
</main>
</body>
</html>
`.value;
}

/** The same page for every failure in these areas: HTML, with a way back. */
export function appErrorPage(
  area: 'portal' | 'console',
  title: string,
  message: string,
  code: string,
): string {
  return appLayout({
    area,
    title,
    body: html`<h1>${title}</h1>
<div class="alert" role="alert">${message}</div>
<p><a href="/${area}/">Back to the ${area === 'portal' ? 'portal' : 'console'}</a></p>
<p class="meta">Error code: <code>${code}</code></p>`,
  });
}

/** A hidden CSRF field for every state-changing form. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;
