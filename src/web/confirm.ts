import { html, type SafeHtml } from './html.js';
import { csrfField } from './layout.js';

/**
 * The confirmation step of a destructive action (issue 15: revoke, withdraw a permission): a
 * second page explaining what will happen, whose form needs the target's id typed in. Works
 * without script; a stray click or a replayed form without the typed id changes nothing.
 */
export interface Confirmation {
  title: string;
  /** What happens, and what cannot be undone. */
  consequences: SafeHtml | string;
  /** Where the form posts. */
  action: string;
  csrf: string;
  /** What to type: the id of what is acted on. */
  expected: string;
  button: string;
  cancelHref: string;
  error?: string;
}

export function confirmationBody(c: Confirmation): SafeHtml {
  return html`<h1>${c.title}</h1>
<div class="warning" role="note">${c.consequences}</div>
<form method="post" action="${c.action}" class="stack" novalidate>
${csrfField(c.csrf)}
${c.error ? html`<div class="alert" role="alert" id="form-error">${c.error}</div>` : ''}
<label for="confirm">To confirm, type <code>${c.expected}</code></label>
<input id="confirm" name="confirm" type="text" required autocomplete="off" autocapitalize="off" spellcheck="false"${c.error ? html` aria-invalid="true" aria-describedby="form-error"` : ''}>
<button type="submit" class="danger">${c.button}</button>
</form>
<p><a href="${c.cancelHref}">Cancel, keep it as it is</a></p>`;
}

/** True when the form carries the typed confirmation (surrounding spaces forgiven). */
export function confirmed(form: Record<string, string>, expected: string): boolean {
  return (form.confirm ?? '').trim() === expected;
}

export const CONFIRMATION_MISMATCH = 'What you typed does not match. Nothing was changed.';
