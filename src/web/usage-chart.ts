import type { UsageDay } from '../usage/service.js';
import { html, type SafeHtml } from './html.js';

/**
 * Requests per day as bars, in inline SVG: no script, and only presentation attributes (the CSP
 * allows no inline `style`). A table with the same figures follows for screen readers and for
 * anyone who wants the numbers.
 */
export function usageChart(days: readonly UsageDay[]): SafeHtml {
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const max = Math.max(1, ...days.map((d) => d.requests));
  const barWidth = 12;
  const gap = 4;
  const height = 80;
  const width = days.length * (barWidth + gap);
  const bars = days.map((d, i) => {
    const h = d.requests === 0 ? 0 : Math.max(2, Math.round((d.requests / max) * height));
    const e = d.errors === 0 ? 0 : Math.max(1, Math.round((d.errors / max) * height));
    const x = i * (barWidth + gap);
    return html`<g><title>${d.day}: ${d.requests} requests, ${d.errors} errors</title><rect x="${x}" y="${height - h}" width="${barWidth}" height="${h}" fill="#2c4fd6"></rect>${e > 0 ? html`<rect x="${x}" y="${height - e}" width="${barWidth}" height="${e}" fill="#b42318"></rect>` : ''}<rect x="${x}" y="${height}" width="${barWidth}" height="1" fill="#aab2c0"></rect></g>`;
  });
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  return html`<figure class="usage">
<svg role="img" aria-label="Requests per day from ${first} to ${last}: ${total} in total" viewBox="0 0 ${width} ${height + 1}" width="${width}" height="${height + 1}">${bars}</svg>
<figcaption>${total} ${total === 1 ? 'request' : 'requests'} in the last ${days.length} days (${first} to ${last}, UTC); errors in red.</figcaption>
<details><summary>Figures per day</summary>
<table><thead><tr><th scope="col">Day</th><th scope="col">Requests</th><th scope="col">Errors</th></tr></thead>
<tbody>${days.map((d) => html`<tr><td>${d.day}</td><td>${d.requests}</td><td>${d.errors}</td></tr>`)}</tbody></table>
</details>
</figure>`;
}
