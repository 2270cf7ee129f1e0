import { html, type SafeHtml } from '../web/html.js';
import { appLayout } from '../web/layout.js';

type Area = 'portal' | 'console';

const narrow = (area: Area, title: string, body: SafeHtml) =>
  appLayout({ area, title, body: html`<div class="narrow"><h1>${title}</h1>${body}</div>` });

const alert = (error?: string) =>
  error ? html`<div class="alert" role="alert" id="form-error">${error}</div>` : '';

/** "Forgot password?": one email field; the answer is the same whatever the email. */
export function forgotPage(p: {
  area: Area;
  csrf: string;
  email?: string;
  error?: string;
  sent?: boolean;
}): string {
  if (p.sent) {
    return narrow(
      p.area,
      'Check your email',
      html`<p class="lead">If an account exists for that address, we have sent it a link to choose a new password. The link works once, for 30 minutes.</p>
<p><a href="/${p.area}/signin">Back to sign in</a></p>`,
    );
  }
  return narrow(
    p.area,
    'Forgot your password?',
    html`<p class="lead">Type the email address of your account: we will send it a link to choose a new password.</p>
${alert(p.error)}
<form method="post" action="/${p.area}/forgot" class="stack" novalidate>
<input type="hidden" name="csrf" value="${p.csrf}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${p.email ?? ''}" autofocus>
<button type="submit">Send the link</button>
</form>
<p class="meta"><a href="/${p.area}/signin">Back to sign in</a></p>`,
  );
}

/** The reset link's page: a new password, the token carried in the form. */
export function resetPage(p: {
  area: Area;
  csrf: string;
  token: string;
  email: string;
  minPasswordLength: number;
  error?: string;
}): string {
  return narrow(
    p.area,
    'Choose a new password',
    html`<p class="lead">For ${p.email}. Every session of this account ends when the password changes.</p>
${alert(p.error)}
<form method="post" action="/${p.area}/reset" class="stack" novalidate>
<input type="hidden" name="csrf" value="${p.csrf}">
<input type="hidden" name="token" value="${p.token}">
<input type="text" name="username" value="${p.email}" autocomplete="username" hidden>
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${p.minPasswordLength}" maxlength="256" aria-describedby="password-hint" autofocus>
<p class="hint" id="password-hint">At least ${p.minPasswordLength} characters.</p>
<button type="submit">Set the new password</button>
</form>`,
  );
}

export function doneResetPage(area: Area): string {
  return narrow(
    area,
    'Password changed',
    html`<p class="lead">Your new password is set, and every session of the account has ended.</p>
<p><a class="button" href="/${area}/signin">Sign in</a></p>`,
  );
}

export function verifiedPage(area: Area, email: string): string {
  return narrow(
    area,
    'Email address confirmed',
    html`<p class="lead">Thank you: ${email} is confirmed.</p><p><a class="button" href="/${area}/">Continue</a></p>`,
  );
}

/** A link that does not work any more: one page for unknown, used and expired. */
export function linkProblemMessage(purpose: 'reset' | 'verify'): string {
  return purpose === 'reset'
    ? 'This password-reset link is not valid any more: it was used, replaced by a newer one, or is older than 30 minutes. Ask for a new one.'
    : 'This confirmation link is not valid any more: it was used, replaced by a newer one, or is older than 7 days. Ask for a new one from the portal.';
}

/** Applying for a production key before confirming the address: why, and the link again. */
export function unverifiedPage(p: { area: Area; email: string; csrf: string }): string {
  return narrow(
    p.area,
    'Confirm your email address first',
    html`<div class="alert" role="alert">A production key waits until you confirm that ${p.email} is your address. Testing keys work already.</div>
<p class="lead">Follow the link in the mail we sent you at sign-up. No mail? Check your spam folder, or have it sent again.</p>
<form method="post" action="/${p.area}/email/resend" class="stack">
<input type="hidden" name="csrf" value="${p.csrf}">
<button type="submit">Send the link again</button>
</form>
<p class="meta">Error code: <code>email_unverified</code> · <a href="/${p.area}/">Back to the portal</a></p>`,
  );
}

export function verificationSentPage(area: Area, email: string): string {
  return narrow(
    area,
    'Check your email',
    html`<p class="lead">We sent a new confirmation link to ${email}. It works once, for 7 days; earlier links no longer work.</p>
<p><a href="/${area}/">Back to the portal</a></p>`,
  );
}
