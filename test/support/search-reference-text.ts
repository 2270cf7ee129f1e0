import { unitOf } from '../../src/search/analysis/text-rules.js';

/**
 * The reference search's own reading of an offer's text (test/support/search-reference.ts):
 * the catalogue rules of docs/search.md written again, character by character, without the
 * engine's regular expressions, so that a mistake in either shows up as a difference. Only the
 * table of unit spellings is shared (data, not a rule).
 */

const isLetter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const QUOTES = new Set(["'", '’', '′', '"', '″', '”']);
const APOSTROPHES = new Set(["'", '’']);

function isNumeral(word: string): boolean {
  if (word === '' || word.startsWith('.') || word.endsWith('.')) return false;
  let previous = '.';
  for (const c of word) {
    if (c === '.' && previous === '.') return false;
    if (c !== '.' && !isDigit(c)) return false;
    previous = c;
  }
  return true;
}

/**
 * One word between hyphens (letters, digits, dots, apostrophes): cut at a dot not between
 * digits, a final `'s` dropped, apostrophes removed, digits cut from letters.
 */
function pieceWords(piece: string): string[] {
  const chars = [...piece];
  const parts: string[] = [];
  let current = '';
  chars.forEach((c, i) => {
    if (c === '.' && !(isDigit(chars[i - 1]) && isDigit(chars[i + 1]))) {
      parts.push(current);
      current = '';
    } else current += c;
  });
  parts.push(current);
  const out: string[] = [];
  for (let part of parts) {
    const last = [...part];
    if (last.length >= 2 && last.at(-1) === 's' && APOSTROPHES.has(last.at(-2) as string))
      part = last.slice(0, -2).join('');
    part = [...part].filter((c) => !APOSTROPHES.has(c)).join('');
    let run = '';
    let runIsNumber = false;
    for (const c of part) {
      const numberChar: boolean = isDigit(c) || (c === '.' && runIsNumber);
      if (run !== '' && numberChar !== runIsNumber) {
        out.push(run);
        run = '';
      }
      if (run === '') runIsNumber = numberChar;
      run += c;
    }
    if (run !== '') out.push(run);
  }
  return out;
}

/** The words of an offer's field, stop words included, before stemming. */
export function referenceWords(text: string): string[] {
  const chars = [...text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()];
  const raw: string[] = [];
  const joined: string[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] as string;
    if (c === '′' && chars[i + 1] === '′') {
      raw.push('″');
      i += 2;
      continue;
    }
    if (QUOTES.has(c)) {
      raw.push(c);
      i += 1;
      continue;
    }
    if (!isWordChar(c)) {
      i += 1;
      continue;
    }
    // A word with its inner hyphens, dots and (after a letter) apostrophes.
    let word = '';
    while (i < chars.length) {
      const d = chars[i] as string;
      if (isWordChar(d)) word += d;
      else if (
        isWordChar(chars[i + 1]) &&
        (d === '-' || d === '.' || (APOSTROPHES.has(d) && isLetter(chars[i - 1])))
      )
        word += d;
      else break;
      i += 1;
    }
    const hyphenated = word.split('-');
    const parts = hyphenated.flatMap(pieceWords);
    raw.push(...parts);
    if (hyphenated.length > 1 && parts.length > 1) {
      const whole = pieceWords(hyphenated.join(''));
      if (whole.length === 1) joined.push(whole[0] as string);
    }
  }
  const out: string[] = [];
  raw.forEach((w, k) => {
    const before = out.at(-1);
    const unit = before !== undefined && isNumeral(before) ? unitOf(w) : undefined;
    const threeInOne = w === 'in' && raw[k + 1] !== undefined && isNumeral(raw[k + 1] as string);
    if (unit !== undefined && !threeInOne) out.push(unit);
    else if (!QUOTES.has(w)) out.push(w);
  });
  return [...out, ...joined].filter((w) => w.length >= 1 && w.length <= 64);
}
