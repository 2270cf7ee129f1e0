import type { KeyApplication } from '../applications/model.js';
import type { KeyRecord } from '../keys/model.js';
import { html, type SafeHtml } from '../web/html.js';

/**
 * What became of the refresh permission asked for (issue 25): a testing key is issued at once,
 * without it; the operator grants it later, and the page says so rather than staying silent.
 */
export function refreshState(a: KeyApplication, key: KeyRecord | undefined): SafeHtml | string {
  if (!a.wantsRefresh) return 'no';
  const asked = html`asked${a.refreshReason ? html`: ${a.refreshReason}` : ''}`;
  if (a.state !== 'approved') return asked;
  if (key?.refreshAllowed) return html`${asked} <span class="state state-approved">granted</span>`;
  return html`${asked} <span class="state state-pending">not granted</span> <span class="hint">The key was issued without it: it works, but gets no refresh tokens until an operator grants the permission.</span>`;
}
