import { html, type Part, SafeHtml } from './html.js';

/**
 * A list page's table (issue 25). On a phone (under 720 px, see vitrine.css) its rows become
 * stacked cards without the heading row, so every cell carries its column's heading in
 * `data-label`, shown before the value; a column without a heading (its actions) shows none.
 */
export interface Column {
  /** The plain-text heading, also the cells' label. */
  label: string;
  /** Markup for the heading row when it is more than text (`<code>…</code>`). */
  heading?: SafeHtml;
}

/** A cell with a class of its own (`nowrap`); any other value is the cell's content. */
export interface ClassedCell {
  class: string;
  content: Part;
}
export type Cell = Part | ClassedCell;

const isClassed = (cell: Cell): cell is ClassedCell =>
  typeof cell === 'object' && cell !== null && !(cell instanceof SafeHtml) && !Array.isArray(cell);

export function dataTable(
  columns: readonly (string | Column)[],
  rows: readonly (readonly Cell[])[],
): SafeHtml {
  const cols = columns.map((c) => (typeof c === 'string' ? { label: c } : c));
  const head = cols.map((c) => html`<th scope="col">${c.heading ?? c.label}</th>`);
  const body = rows.map(
    (cells) =>
      html`<tr>${cells.map((cell, i) => {
        const label = cols[i]?.label ?? '';
        return isClassed(cell)
          ? html`<td class="${cell.class}" data-label="${label}">${cell.content}</td>`
          : html`<td data-label="${label}">${cell}</td>`;
      })}</tr>`,
  );
  return html`<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}
