import { escapeHtml } from '../web/html.js';
import { isStopWord, stem, type TextQuery, words } from './text.js';

/**
 * `highlight=true` (SPEC §6): the title and a description snippet with the matched words
 * marked. Offer text is never trusted HTML, so every piece is HTML-escaped first and the only
 * markup in the result is `<mark>` and `</mark>` we add around whole words.
 *
 * A word is marked when its stem is one the query matched on (a term, a typo-corrected
 * alternative, a phrase word) or, for the word being typed, when it starts with the prefix.
 */
export interface Highlight {
  title: string;
  description: string;
}

/** Words around the first match kept in the description snippet. */
const SNIPPET_WORDS = 30;
const WORDS_BEFORE_MATCH = 8;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

interface Token {
  start: number;
  end: number;
  matched: boolean;
}

function matcher(query: TextQuery): (word: string) => boolean {
  const stems = new Set([...query.terms.flatMap((t) => t.stems), ...query.phrases.flat()]);
  const prefix = query.prefix;
  return (raw) =>
    words(raw).some(
      (w) => (!isStopWord(w) && stems.has(stem(w))) || (prefix !== null && w.startsWith(prefix)),
    );
}

function tokens(text: string, isMatch: (word: string) => boolean): Token[] {
  return [...text.matchAll(WORD)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    matched: isMatch(m[0]),
  }));
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

export function highlight(offer: { title: string; description: string }, query: TextQuery): Highlight {
  const isMatch = matcher(query);
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
  return { title: render(offer.title, titleTokens, 0, offer.title.length), description: snippet };
}
