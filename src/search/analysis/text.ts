import { stemmer } from 'stemmer';
import { catalogueWords, unitsInQuery } from './text-rules.js';

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
const MARKS = /\p{M}+/gu;

const ASCII = /^[\0-\x7f]*$/;

/** Lower-case and without accents (café → cafe). */
function fold(text: string): string {
  // Most offer text is ASCII, where NFKD and mark stripping change nothing: skipping the
  // Unicode steps halves the cost of analysis in a bulk import (ADR 0012).
  return ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

const fits = (w: string) => w.length > 0 && w.length <= MAX_TOKEN_LENGTH;

/**
 * Lower-cased, diacritic-free words of an offer's text, stop words included, in order, by the
 * catalogue rules (text-rules.ts): numbers cut from letters, units, apostrophes, and the
 * hyphenated words also joined, after the others.
 */
export function words(text: string): string[] {
  return catalogueWords(fold(text), false).filter(fits);
}

/**
 * A value's words without the joined forms `words` appends for search (`Émile-Co` is `emile co`,
 * not `emile co emileco`): how attribute values and facet prefixes are compared.
 */
export function valueWords(text: string): string[] {
  return catalogueWords(fold(text), false, false).filter(fits);
}

/** The words of a piece of query: as `words`, but a hyphenated word is its parts joined. */
export function queryWords(text: string): string[] {
  return catalogueWords(fold(text), true).filter(fits);
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

// Words follow Zipf's law: a small memo answers most stemming calls of a bulk import (the
// Porter stemmer was most of the per-offer CPU time). Cleared when full, so it stays bounded.
const STEM_MEMO_SIZE = 200_000;
const stemMemo = new Map<string, string>();

export function stem(word: string): string {
  let stemmed = stemMemo.get(word);
  if (stemmed === undefined) {
    if (stemMemo.size >= STEM_MEMO_SIZE) stemMemo.clear();
    stemmed = stemmer(word);
    stemMemo.set(word, stemmed);
  }
  return stemmed;
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

/** A full word of the query: it matches when any of `stems` does (more than one after a typo). */
export interface QueryTerm {
  /** The folded word as typed, for typo tolerance. */
  word: string;
  stems: string[];
}

/**
 * What a `q` asks for (docs/search.md): every term, phrase and the prefix must match (in the
 * title or the description) and no excluded word or phrase may.
 */
export interface TextQuery {
  terms: QueryTerm[];
  /** Raw last word matched as a prefix; null when the last word is complete or too short. */
  prefix: string | null;
  /**
   * SQLite: every indexed token that starts with `prefix`, when there are few, so the text
   * index matches them as alternatives read lazily instead of merging every posting list of the
   * prefix before the first match (store-sql.ts `expandPrefix`). Same matches, either way.
   */
  prefixTerms?: readonly string[];
  /** `"…"` in the query: stems that must follow each other in one field (two or more). */
  phrases: string[][];
  /** `-word` or `-"a phrase"`: stem sequences no match may contain. */
  excluded: string[][];
}

/** Prefixes shorter than this match too much to be useful and cost the most. */
const MIN_PREFIX_LENGTH = 2;
/** Terms, phrases and exclusions together; the rest of a longer query is ignored. */
export const MAX_QUERY_TERMS = 16;

// A quoted phrase (optionally excluded with a leading minus) or a run of non-spaces.
const CHUNK = /(-?)"([^"]*)"|(\S+)/gu;
const EXCLUDED_CHUNK = /^-[\p{L}\p{N}]/u;

const stemsOf = (text: string) => queryWords(text).filter((w) => !isStopWord(w));
/** A quoted phrase's words: a hyphenated word is its parts, in the order an offer's text has them. */
const phraseStemsOf = (text: string) =>
  catalogueWords(fold(text), false, false)
    .filter(fits)
    .filter((w) => !isStopWord(w));

/** True when the query has something to look for, not only exclusions. */
export function hasPositiveTerms(query: TextQuery): boolean {
  return query.terms.length > 0 || query.prefix !== null || query.phrases.length > 0;
}

/** Returns null when nothing searchable is left (only punctuation or stop words). */
export function parseTextQuery(typed: string): TextQuery | null {
  const q = unitsInQuery(typed);
  const terms: QueryTerm[] = [];
  const phrases: string[][] = [];
  const excluded: string[][] = [];
  let prefix: string | null = null;
  let units = 0;
  const folded = q.normalize('NFKD').replace(MARKS, '');
  const endsInWord = /[\p{L}\p{N}]$/u.test(folded);
  const chunks = [...q.matchAll(CHUNK)];
  const addTerm = (word: string) => {
    const s = stem(word);
    if (units >= MAX_QUERY_TERMS || terms.some((t) => t.stems[0] === s)) return;
    terms.push({ word, stems: [s] });
    units += 1;
  };
  chunks.forEach((chunk, index) => {
    const [, minus, quoted, plain] = chunk;
    if (quoted !== undefined) {
      const found = phraseStemsOf(quoted);
      const sequence = found.map(stem);
      if (sequence.length === 0 || units >= MAX_QUERY_TERMS) return;
      if (sequence.length === 1 && !minus) {
        addTerm(found[0] ?? '');
        return;
      }
      if (minus) excluded.push(sequence);
      else phrases.push(sequence);
      units += 1;
      return;
    }
    const text = plain ?? '';
    if (EXCLUDED_CHUNK.test(text)) {
      const sequence = stemsOf(text).map(stem);
      if (sequence.length > 0 && units < MAX_QUERY_TERMS) {
        excluded.push(sequence);
        units += 1;
      }
      return;
    }
    const found = stemsOf(text);
    const isLast = index === chunks.length - 1;
    // While typing `32g`, the `g` cut from the number is not yet a word to require.
    if (isLast && endsInWord && found.length > 1 && (found.at(-1) as string).length < MIN_PREFIX_LENGTH)
      found.pop();
    found.forEach((word, i) => {
      if (isLast && endsInWord && i === found.length - 1 && word.length >= MIN_PREFIX_LENGTH) prefix = word;
      else addTerm(word);
    });
  });
  const query: TextQuery = { terms, prefix, phrases, excluded };
  if (!hasPositiveTerms(query) && excluded.length === 0) return null;
  return query;
}

/** Words this short are matched exactly: one typo in a short word finds too many others. */
export const MIN_TYPO_WORD_LENGTH = 5;
const TYPO_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Stems of every word one edit away from `word` (deletion, insertion, substitution or
 * transposition of adjacent letters). The store keeps those found in its vocabulary, so a
 * misspelt word finds what it was meant to (docs/search.md, typo tolerance).
 */
export function typoCandidates(word: string): string[] {
  const letters = [...word];
  const alphabet = [...new Set([...TYPO_ALPHABET, ...letters])];
  const out = new Set<string>();
  for (let i = 0; i <= letters.length; i += 1) {
    const head = letters.slice(0, i).join('');
    const tail = letters.slice(i).join('');
    const rest = letters.slice(i + 1).join('');
    if (i < letters.length) out.add(head + rest);
    if (i < letters.length - 1)
      out.add(head + (letters[i + 1] ?? '') + (letters[i] ?? '') + letters.slice(i + 2).join(''));
    for (const c of alphabet) {
      out.add(head + c + tail);
      if (i < letters.length) out.add(head + c + rest);
    }
  }
  out.delete(word);
  const stems = new Set<string>();
  for (const candidate of out) if (candidate.length > 0 && !isStopWord(candidate)) stems.add(stem(candidate));
  stems.delete(stem(word));
  return [...stems].sort();
}
