import { valueWords } from '../analysis/text.js';
import type { AttributeDeclaration, AttributeType } from '../engine.js';

/**
 * How a declared attribute's raw value (an offer's `attributes.NAME`, or a filter's text) becomes
 * the value the index holds; undefined: the offer has none. Numbers: finite numbers, or decimal
 * strings (a CSV import gives strings); strings: folded like text (`valueWords` joined by one space);
 * booleans: `true` / `false` (folded) or 1 / 0, held as 1 / 0.
 */
export function attributeValue(type: AttributeType, raw: unknown): number | string | undefined {
  if (type === 'number') {
    if (typeof raw === 'number') return Number.isFinite(raw) ? raw + 0 : undefined;
    if (typeof raw === 'string' && DECIMAL.test(raw.trim())) return Number(raw.trim()) + 0;
    return undefined;
  }
  if (type === 'boolean') {
    if (raw === true || raw === 1 || (typeof raw === 'string' && foldString(raw) === 'true')) return 1;
    if (raw === false || raw === 0 || (typeof raw === 'string' && foldString(raw) === 'false')) return 0;
    return undefined;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const folded = foldString(String(raw));
  return folded === '' ? undefined : folded;
}

const DECIMAL = /^-?\d{1,15}(\.\d{1,15})?$/;

/**
 * A string attribute's value as search compares it: lower case, no accents, words one space
 * apart, a hyphen a space (`Café-Co` = `cafe co`).
 */
export function foldString(value: string): string {
  return valueWords(value).join(' ');
}

/**
 * How a value the index holds is shown as a facet value: a string attribute's values are shown
 * as written instead (spellings.ts); this is the folded form, as compared.
 */
export function shownValue(type: AttributeType, value: number | string): string {
  if (type === 'boolean') return value === 1 ? 'true' : 'false';
  return String(value);
}

/**
 * The names of a schema's searchable attributes (strings only), by name: the order their words
 * take in an offer's text, between the title and the description (ADR 0042).
 */
export function searchableNames(attributes: readonly AttributeDeclaration[]): string[] {
  return attributes
    .filter((a) => a.searchable && a.type === 'string')
    .map((a) => a.name)
    .sort();
}

/** The texts `q` reads of an offer's searchable attributes (`searchableNames`), values as typed. */
export function searchableTexts(
  names: readonly string[],
  attributes: Readonly<Record<string, unknown>> | undefined,
): string[] {
  const out: string[] = [];
  if (attributes === undefined) return out;
  for (const name of names) {
    const raw = attributes[name];
    if (typeof raw === 'string' || (typeof raw === 'number' && Number.isFinite(raw))) out.push(String(raw));
  }
  return out;
}
