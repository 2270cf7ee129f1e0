import type { UsageDay } from '../usage/service.js';
import { html, type SafeHtml } from './html.js';
import { dataTable } from './table.js';

/** A round upper bound for the y axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceCeiling(max: number): number {
  if (max <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Requests per day as bars, in inline SVG with labelled axes (issue 15): requests on the y axis
 * (0, half and a round top, with grid lines), days on the x axis (first, middle and last, UTC),
 * each bar's figures in its tooltip. No script and only presentation attributes (the CSP allows
 * no inline `style`). A table with the same figures follows for screen readers.
 */
export function usageChart(days: readonly UsageDay[]): SafeHtml {
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const top = niceCeiling(Math.max(0, ...days.map((d) => d.requests)));
  const barWidth = 12;
  const gap = 4;
  const plotHeight = 120;
  const left = 48; // room for the y labels
  const topPad = 16; // room for the axis title
  const bottom = topPad + plotHeight;
  const width = left + days.length * (barWidth + gap);
  const height = bottom + 22; // room for the x labels
  const y = (value: number) => bottom - Math.round((value / top) * plotHeight);
  const ticks = [0, top / 2, top].filter((v, i, all) => all.indexOf(v) === i && Number.isInteger(v));
  const grid = ticks.map(
    (v) =>
      html`<line x1="${left}" x2="${width}" y1="${y(v)}" y2="${y(v)}" stroke="#e3e7ee" stroke-width="1"></line><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="#5b6475">${fmt(v)}</text>`,
  );
  const bars = days.map((d, i) => {
    const h = d.requests === 0 ? 0 : Math.max(2, bottom - y(d.requests));
    const e = d.errors === 0 ? 0 : Math.max(1, bottom - y(d.errors));
    const x = left + i * (barWidth + gap) + gap / 2;
    return html`<g><title>${d.day}: ${fmt(d.requests)} requests, ${fmt(d.errors)} errors</title><rect x="${x}" y="${bottom - h}" width="${barWidth}" height="${h}" fill="#2c4fd6"></rect>${e > 0 ? html`<rect x="${x}" y="${bottom - e}" width="${barWidth}" height="${e}" fill="#b42318"></rect>` : ''}</g>`;
  });
  const labelled = [0, Math.floor((days.length - 1) / 2), days.length - 1].filter(
    (v, i, all) => v >= 0 && all.indexOf(v) === i,
  );
  const xLabels = labelled.map((i) => {
    const day = days[i]?.day ?? '';
    const x = left + i * (barWidth + gap) + gap / 2 + barWidth / 2;
    // The last label ends at its bar, so it stays inside the drawing.
    const anchor = i === days.length - 1 && i > 0 ? 'end' : 'middle';
    return html`<text x="${anchor === 'end' ? x + barWidth / 2 : x}" y="${bottom + 16}" text-anchor="${anchor}" font-size="11" fill="#5b6475">${day.slice(5)}</text>`;
  });
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  return html`<figure class="usage">
<svg role="img" aria-label="Requests per day from ${first} to ${last}: ${fmt(total)} in total, at most ${fmt(Math.max(0, ...days.map((d) => d.requests)))} in a day" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
<text x="0" y="11" font-size="11" fill="#5b6475">requests / day</text>
${grid}
<line x1="${left}" x2="${left}" y1="${topPad}" y2="${bottom}" stroke="#aab2c0" stroke-width="1"></line>
<line x1="${left}" x2="${width}" y1="${bottom}" y2="${bottom}" stroke="#aab2c0" stroke-width="1"></line>
${bars}
${xLabels}
</svg>
<figcaption>${fmt(total)} ${total === 1 ? 'request' : 'requests'} in the last ${days.length} days (${first} to ${last}, UTC, dates as month-day on the axis); errors in red.</figcaption>
<details><summary>Figures per day</summary>
${dataTable(
  ['Day', 'Requests', 'Errors'],
  days.map((d) => [d.day, d.requests, d.errors]),
)}
</details>
</figure>`;
}
