import { stemmer } from 'stemmer';

/**
 * Text analysis, done once in the application and shared by both backends (ADR 0003): SQLite's
 * porter tokenizer and PostgreSQL's english configuration stem and split differently, so
 * letting each database analyse text would make the same query find different offers.
 * Instead both store and match the tokens produced here.
 *
 * Pipeline: Unicode NFKD, strip combining marks (café → cafe), lower-case, split on anything
 * that is not a letter or digit, drop English stop words, Porter-stem.
 */

// A short English stop-word list: words too common to discriminate between offers.
const STOP_WORDS = new Set(
  `a an and are as at be been but by for from has have he her his i if in into is it its me my no nor not
  of on or our she so than that the their them then there these they this those to too very was we were
  what when where which while who whom why will with you your yours`.split(/\s+/),
);

const MAX_TOKEN_LENGTH = 64;
const SPLIT = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}+/gu;

/** Lower-cased, diacritic-free words of a text, stop words included, in order. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .split(SPLIT)
    .filter((w) => w.length > 0 && w.length <= MAX_TOKEN_LENGTH);
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

export function stem(word: string): string {
  return stemmer(word);
}

export interface AnalysedField {
  /** Stems in document order (stop words removed); positions matter for phrases. */
  stems: string[];
  /** Unstemmed words whose stem differs, so a prefix typed so far ("runn") finds "running". */
  words: string[];
}

export function analyseField(text: string): AnalysedField {
  const stems: string[] = [];
  const extra = new Set<string>();
  for (const word of words(text)) {
    if (isStopWord(word)) continue;
    const s = stem(word);
    stems.push(s);
    if (s !== word) extra.add(word);
  }
  return { stems, words: [...extra] };
}

/**
 * What a `q` asks for: every full word must match (by stem, title or description), and the
 * last word, when the query does not end in a space, also matches as a prefix of any word.
 */
export interface TextQuery {
  /** Stems that must all match. */
  terms: string[];
  /** Raw word matched as a prefix; null when the last word is complete or too short. */
  prefix: string | null;
}

/** Prefixes shorter than this match too much to be useful and cost the most. */
const MIN_PREFIX_LENGTH = 2;
export const MAX_QUERY_TERMS = 16;

/** Returns null when nothing searchable is left (only punctuation or stop words). */
export function parseTextQuery(q: string): TextQuery | null {
  const all = words(q).filter((w) => !isStopWord(w));
  const endsInWord = /[\p{L}\p{N}]$/u.test(q.normalize('NFKD').replace(MARKS, ''));
  const last = all.at(-1);
  let prefix: string | null = null;
  let full = all;
  if (endsInWord && last !== undefined && last.length >= MIN_PREFIX_LENGTH) {
    prefix = last;
    full = all.slice(0, -1);
  }
  const terms = [...new Set(full.map(stem))].slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0 && prefix === null) return null;
  return { terms, prefix };
}
