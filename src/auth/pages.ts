import type { Environment } from '../platform/environment.js';
import { html, type SafeHtml } from '../web/html.js';
import { documentHead, newAccountFields } from '../web/layout.js';

/** The auth server's pages: login, sign-up and the error page. Plain forms, no script. */

export function authLayout(title: string, environment: Environment, body: SafeHtml): string {
  return html`${documentHead(`${title} · Vitrine`)}
<body>
<main class="card">
<p class="brand">Vitrine${environment === 'testing' ? html`<span class="badge">testing</span>` : ''}</p>
${body}
</main>
</body>
</html>
`.value;
}

export interface LoginPage {
  environment: Environment;
  projectName: string;
  destinationHost: string;
  ticket: string;
  email?: string;
  error?: string;
  signupUrl: string | null;
  /** Issue 27: "Forgot password?", carrying the ticket so the user can come back to this sign-in. */
  forgotUrl: string;
}

export function loginPage(p: LoginPage): string {
  return authLayout(
    `Sign in to ${p.projectName}`,
    p.environment,
    html`<h1>Sign in to continue to ${p.projectName}</h1>
<p class="lead"><strong>${p.projectName}</strong> asks to act on your behalf. After you sign in you go back to <strong>${p.destinationHost}</strong>.</p>
${p.error ? html`<div class="alert" role="alert" id="form-error">${p.error}</div>` : ''}
<form method="post" action="/auth/connect" novalidate>
<input type="hidden" name="ticket" value="${p.ticket}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${p.email ?? ''}" ${p.error ? html`aria-describedby="form-error"` : ''} autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">Sign in</button>
</form>
<p class="meta"><a href="${p.forgotUrl}">Forgot password?</a></p>
${p.signupUrl ? html`<p class="meta">No account yet? <a href="${p.signupUrl}">Create one</a>.</p>` : ''}`,
  );
}

export interface SignupPage {
  environment: Environment;
  projectName: string;
  ticket: string;
  email?: string;
  name?: string;
  error?: string;
  loginUrl: string;
  minPasswordLength: number;
}

export function signupPage(p: SignupPage): string {
  return authLayout(
    'Create your account',
    p.environment,
    html`<h1>Create your account</h1>
<p class="lead">Then continue to <strong>${p.projectName}</strong>.</p>
${p.error ? html`<div class="alert" role="alert" id="form-error">${p.error}</div>` : ''}
<form method="post" action="/auth/signup" novalidate>
<input type="hidden" name="ticket" value="${p.ticket}">
${newAccountFields(p)}
<button type="submit">Create account and continue</button>
</form>
<p class="meta">Already have an account? <a href="${p.loginUrl}">Sign in</a>.</p>`,
  );
}

export function errorPage(environment: Environment, title: string, message: string, code: string): string {
  return authLayout(
    title,
    environment,
    html`<h1>${title}</h1>
<div class="alert" role="alert">${message}</div>
<p class="lead">You were not sent anywhere. Go back to the app you came from and try again; if this keeps happening, tell its developers.</p>
<p class="meta">Error code: <code>${code}</code></p>`,
  );
}
