import { html } from './html.js';
import { appLayout } from './layout.js';

export interface SigninPage {
  area: 'portal' | 'console';
  csrf: string;
  email?: string;
  error?: string;
  /** Portal only: where to create an account. */
  signupUrl?: string;
}

export function signinPage(p: SigninPage): string {
  const who = p.area === 'portal' ? 'developer' : 'operator';
  return appLayout({
    area: p.area,
    title: 'Sign in',
    body: html`<div class="narrow">
<h1>Sign in</h1>
<p class="lead">${p.area === 'portal' ? 'Manage your projects and API keys.' : 'Approve applications, manage keys, read the audit log.'}</p>
${p.error ? html`<div class="alert" role="alert" id="form-error">${p.error}</div>` : ''}
<form method="post" action="/${p.area}/signin" class="stack" novalidate>
<input type="hidden" name="csrf" value="${p.csrf}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${p.email ?? ''}"${p.error ? html` aria-describedby="form-error"` : ''} autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">Sign in as ${who}</button>
</form>
<p class="meta"><a href="/${p.area}/forgot">Forgot password?</a></p>
${p.signupUrl ? html`<p class="meta">No account yet? <a href="${p.signupUrl}">Create a developer account</a>.</p>` : ''}
</div>`,
  });
}
