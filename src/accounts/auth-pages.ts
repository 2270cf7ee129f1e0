import { authLayout } from '../auth/pages.js';
import type { Environment } from '../platform/environment.js';
import { html } from '../web/html.js';

/** The auth server's "Forgot password?" pages for end users (issue 27). Plain forms, no script. */

const alert = (error?: string) =>
  error ? html`<div class="alert" role="alert" id="form-error">${error}</div>` : '';
const backLink = (loginUrl: string | null) =>
  loginUrl ? html`<p class="meta"><a href="${loginUrl}">Back to sign in</a></p>` : '';

export function userForgotPage(p: {
  environment: Environment;
  ticket: string;
  loginUrl: string;
  email?: string;
  error?: string;
  sent?: boolean;
}): string {
  if (p.sent) {
    return authLayout(
      'Check your email',
      p.environment,
      html`<h1>Check your email</h1>
<p class="lead">If an account exists for that address, we have sent it a link to choose a new password. The link works once, for 30 minutes.</p>
${backLink(p.loginUrl)}`,
    );
  }
  return authLayout(
    'Forgot your password?',
    p.environment,
    html`<h1>Forgot your password?</h1>
<p class="lead">Type the email address of your account: we will send it a link to choose a new password.</p>
${alert(p.error)}
<form method="post" action="/auth/forgot" novalidate>
<input type="hidden" name="ticket" value="${p.ticket}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${p.email ?? ''}" autofocus>
<button type="submit">Send the link</button>
</form>
${backLink(p.loginUrl)}`,
  );
}

export function userResetPage(p: {
  environment: Environment;
  token: string;
  ticket: string;
  email: string;
  minPasswordLength: number;
  error?: string;
}): string {
  return authLayout(
    'Choose a new password',
    p.environment,
    html`<h1>Choose a new password</h1>
<p class="lead">For ${p.email}. You will be signed out of every app where you are signed in.</p>
${alert(p.error)}
<form method="post" action="/auth/reset" novalidate>
<input type="hidden" name="token" value="${p.token}">
<input type="hidden" name="ticket" value="${p.ticket}">
<input type="text" name="username" value="${p.email}" autocomplete="username" hidden>
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${p.minPasswordLength}" maxlength="256" autofocus>
<button type="submit">Set the new password</button>
</form>`,
  );
}

export function userResetDonePage(environment: Environment, loginUrl: string | null): string {
  return authLayout(
    'Password changed',
    environment,
    html`<h1>Password changed</h1>
<p class="lead">Your new password is set. You were signed out everywhere.</p>
${loginUrl ? html`<p><a href="${loginUrl}">Continue to sign in</a></p>` : html`<p class="lead">Go back to the app you came from and sign in.</p>`}`,
  );
}

export function userVerifiedPage(environment: Environment, email: string): string {
  return authLayout(
    'Email address confirmed',
    environment,
    html`<h1>Email address confirmed</h1><p class="lead">Thank you: ${email} is confirmed. You can close this page and go back to the app.</p>`,
  );
}

/** The second step of `/connect` and `/authorize` for a user who enrolled a second factor. */
export function userCodePage(p: {
  environment: Environment;
  projectName: string;
  ticket: string;
  step: string;
  error?: string;
}): string {
  return authLayout(
    'Enter your code',
    p.environment,
    html`<h1>Enter your code</h1>
<p class="lead">To continue to <strong>${p.projectName}</strong>, type the 6-digit code your authenticator app shows, or one of your recovery codes.</p>
${alert(p.error)}
<form method="post" action="/auth/two-factor" novalidate>
<input type="hidden" name="ticket" value="${p.ticket}">
<input type="hidden" name="step" value="${p.step}">
<label for="code">Code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="24" autofocus>
<button type="submit">Verify</button>
</form>`,
  );
}
