import { escapeHtml } from '../../web/html.js';
import { typoBudget } from '../rules.js';
import { isStopWord, stem, type TextQuery, words } from './text.js';
import { unitOf } from './text-rules.js';

/**
 * `highlight=true`: the title and a description snippet with the matched words
 * marked. Offer text is never trusted HTML, so every piece is HTML-escaped first and the only
 * markup in the result is `<mark>` and `</mark>` we add around whole words.
 *
 * A word is marked when its stem is one the query matched on (a term or a phrase word), when it
 * is within the typo budget of a typed term (1 edit from 5 letters, 2 from 9), or, for
 * the word being typed, when it starts with the prefix or with a word within that budget of it.
 * A number and the unit the text rules read after it (ADR 0033) are one piece, marked whole:
 * `6ft`, `6 feet`, `6'`, `55"`, `32 GB`.
 */
export interface Highlight {
  title: string;
  description: string;
  /** Each searchable attribute the offer has a value for (ADR 0042): the whole value, marked. */
  attributes?: Record<string, string>;
}

/** Words around the first match kept in the description snippet. */
const SNIPPET_WORDS = 30;
const WORDS_BEFORE_MATCH = 8;
// A word with its inner hyphens, apostrophes and decimal points (`T-Shirt`, `O'Neill`, `5.5`):
// analysed whole, it holds every index word it gives (`t`, `shirt`, `tshirt`).
const WORD = /[\p{L}\p{N}\p{M}]+(?:['’.-][\p{L}\p{N}\p{M}]+)*/gu;

interface Token {
  start: number;
  end: number;
  matched: boolean;
}

/** Whether `a` and `b` are at most `max` edits apart (optimal string alignment). */
export function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  if (max === 0) return a === b;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return false;
    before = previous;
    previous = current;
  }
  return (previous[b.length] ?? max + 1) <= max;
}

function matcher(query: TextQuery, matchedStems: readonly string[]): (word: string) => boolean {
  const stems = new Set([...query.terms.flatMap((t) => t.stems), ...query.phrases.flat(), ...matchedStems]);
  // The engine's matched stems hold its corrections (only those the typo policy allowed: with
  // `auto`, `iphone` does not mark "phone"); without them, words within the budget are marked.
  const corrected = matchedStems.length === 0;
  const typed = corrected ? query.terms.map((t) => t.word).filter((w) => typoBudget(w.length) > 0) : [];
  const prefix = query.prefix;
  const prefixBudget = prefix === null || !corrected ? 0 : typoBudget(prefix.length);
  const matches = (w: string) =>
    (!isStopWord(w) && (stems.has(stem(w)) || typed.some((t) => withinEdits(w, t, typoBudget(t.length))))) ||
    (prefix !== null &&
      (w.startsWith(prefix) ||
        (prefixBudget > 0 &&
          [-1, 0, 1].some((d) => withinEdits(w.slice(0, prefix.length + d), prefix, prefixBudget)))));
  return (raw) => words(raw).some(matches);
}

// Right after a number: a unit symbol (`'`, `"`, `″`, `′′`), or a gap before the next word.
const SYMBOLS = /[^\p{L}\p{N}\p{M}\s]+/uy;
const GAP = /^[\s-]*$/;
const ENDS_IN_DIGIT = /\p{N}$/u;

function tokens(text: string, isMatch: (word: string) => boolean): Token[] {
  const spans = [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const out: Token[] = [];
  for (let i = 0; i < spans.length; i += 1) {
    const span = spans[i] as { start: number; end: number };
    const unit = unitAfter(text, spans, i);
    if (unit !== null) i = unit.last;
    const end = unit?.end ?? span.end;
    out.push({ start: span.start, end, matched: isMatch(text.slice(span.start, end)) });
  }
  return out;
}

/**
 * The unit right after span `i` when it ends in a number: its end and the last span it takes.
 * Whether the text rules read it as a unit is asked of them, with the word after as context
 * (`3 in 1` is no inch): the unit is the word `words` gives right after the number's.
 */
function unitAfter(
  text: string,
  spans: ReadonlyArray<{ start: number; end: number }>,
  i: number,
): { end: number; last: number } | null {
  const span = spans[i] as { start: number; end: number };
  if (!ENDS_IN_DIGIT.test(text.slice(span.start, span.end))) return null;
  SYMBOLS.lastIndex = span.end;
  const symbols = SYMBOLS.exec(text)?.[0];
  const next = spans[i + 1];
  let unit: { end: number; last: number; spelling: string } | null = null;
  if (symbols !== undefined) {
    // The unit's symbols, not what follows them (`55".`, `6',`): two (`′′`) or one.
    const spelling = [symbols.slice(0, 2), symbols.slice(0, 1)].find((s) => unitOf(s) !== undefined);
    if (spelling !== undefined) unit = { end: span.end + spelling.length, last: i, spelling };
  } else if (next && GAP.test(text.slice(span.end, next.start)))
    unit = { end: next.end, last: i + 1, spelling: text.slice(next.start, next.end) };
  const canonical = unit && unitOf(unit.spelling.toLowerCase());
  if (!unit || canonical === undefined) return null;
  const context = spans[unit.last + 1]?.end ?? text.length;
  const number = words(text.slice(span.start, span.end));
  return words(text.slice(span.start, context))[number.length] === canonical ? unit : null;
}

/** Escapes `text[from, to)` and wraps the matched tokens inside it. */
function render(text: string, list: Token[], from: number, to: number): string {
  let out = '';
  let at = from;
  for (const token of list) {
    if (!token.matched || token.start < from || token.end > to) continue;
    out += `${escapeHtml(text.slice(at, token.start))}<mark>${escapeHtml(text.slice(token.start, token.end))}</mark>`;
    at = token.end;
  }
  return out + escapeHtml(text.slice(at, to));
}

/**
 * `matchedStems`: the stems the engine matched (typo corrections and prefix completions included);
 * `searchable`: the index's searchable attributes, by name (none: no `attributes` in the answer).
 */
export function highlight(
  offer: { title: string; description: string; attributes?: Readonly<Record<string, unknown>> },
  query: TextQuery,
  matchedStems: readonly string[] = [],
  searchable: readonly string[] = [],
): Highlight {
  const isMatch = matcher(query, matchedStems);
  const titleTokens = tokens(offer.title, isMatch);
  const text = offer.description;
  const list = tokens(text, isMatch);
  const first = Math.max(
    0,
    list.findIndex((t) => t.matched),
  );
  const startIndex = Math.max(0, first - WORDS_BEFORE_MATCH);
  const endIndex = Math.min(list.length, startIndex + SNIPPET_WORDS);
  const from = startIndex === 0 ? 0 : (list[startIndex]?.start ?? 0);
  const to = endIndex >= list.length ? text.length : (list[endIndex - 1]?.end ?? text.length);
  const snippet = `${from > 0 ? '…' : ''}${render(text, list, from, to)}${to < text.length ? '…' : ''}`;
  const out: Highlight = {
    title: render(offer.title, titleTokens, 0, offer.title.length),
    description: snippet,
  };
  if (searchable.length > 0) {
    const attributes: Record<string, string> = {};
    for (const name of searchable) {
      const raw = offer.attributes?.[name];
      if (typeof raw !== 'string' && typeof raw !== 'number') continue;
      const value = String(raw);
      attributes[name] = render(value, tokens(value, isMatch), 0, value.length);
    }
    out.attributes = attributes;
  }
  return out;
}
