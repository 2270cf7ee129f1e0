import { html, type SafeHtml } from './html.js';

/** A state as a coloured pill with its word (colour is never the only signal). */
export const stateBadge = (state: string): SafeHtml =>
  html`<span class="state state-${state}">${state}</span>`;
