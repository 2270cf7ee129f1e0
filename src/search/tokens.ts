import { isStopWord, words } from '../offers/text.js';

/**
 * The words an offer's field is indexed under: `words(text)` without stop words (offers/text.ts),
 * computed for plain ASCII text in one scan of its characters instead of a lower-cased copy, a
 * split and a filter. Building the index calls this twice per offer, a million times at start.
 * Non-ASCII text takes the general path. A test pins both to the same result.
 */
const MAX_TOKEN_LENGTH = 64;

const ASCII = /^[\0-\x7f]*$/;

export function forEachIndexWord(text: string, visit: (word: string) => void): void {
  if (!ASCII.test(text)) {
    general(text, visit);
    return;
  }
  const n = text.length;
  let start = -1;
  for (let i = 0; i <= n; i += 1) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const alnum = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
    if (alnum) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      if (i - start <= MAX_TOKEN_LENGTH) {
        const word = text.slice(start, i).toLowerCase();
        if (!isStopWord(word)) visit(word);
      }
      start = -1;
    }
  }
}

function general(text: string, visit: (word: string) => void): void {
  for (const w of words(text)) if (!isStopWord(w)) visit(w);
}
