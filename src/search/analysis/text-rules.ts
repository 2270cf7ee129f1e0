/**
 * The catalogue rules of text analysis (docs/search.md, ADR 0033), applied to folded text
 * (lower-case, accents stripped) before stop words and stemming:
 *
 * - a number is a word of its own, a decimal stays whole (`5.5`), and a number glued to letters
 *   is cut from them (`32gb` → `32 gb`, `ps5` → `ps 5`);
 * - a unit's usual spellings right after a number are one unit (`6'`, `6 feet`, `6 foot` → `6 ft`;
 *   `55"`, `55 in`, `55 inches` → `55 inch`; `1 terabyte` → `1 tb`), `UNITS` below;
 * - an apostrophe joins (`o'neill` → `oneill`), a possessive `'s` goes (`men's` → `men`);
 * - a hyphenated word is its parts (`t-shirt` → `t shirt`) and, in offers, also the parts joined,
 *   after the field's other words (`tshirt`), so that `tshirt`, `t-shirt` and `t shirt` find it;
 *   a query's hyphenated word is the joined word alone.
 */

/** Canonical unit → its spellings (after a number). */
const UNIT_SPELLINGS: Record<string, readonly string[]> = {
  inch: ['in', 'inch', 'inches', '"', '″', '”', '′′'],
  ft: ['ft', 'feet', 'foot', "'", '’', '′'],
  yd: ['yd', 'yds', 'yard', 'yards'],
  mm: ['mm', 'millimeter', 'millimeters', 'millimetre', 'millimetres'],
  cm: ['cm', 'centimeter', 'centimeters', 'centimetre', 'centimetres'],
  m: ['m', 'meter', 'meters', 'metre', 'metres'],
  km: ['km', 'kilometer', 'kilometers', 'kilometre', 'kilometres'],
  kb: ['kb', 'kilobyte', 'kilobytes'],
  mb: ['mb', 'megabyte', 'megabytes'],
  gb: ['gb', 'gig', 'gigs', 'gigabyte', 'gigabytes'],
  tb: ['tb', 'terabyte', 'terabytes'],
  mah: ['mah'],
  w: ['w', 'watt', 'watts'],
  kw: ['kw', 'kilowatt', 'kilowatts'],
  v: ['v', 'volt', 'volts'],
  hz: ['hz', 'hertz'],
  mhz: ['mhz', 'megahertz'],
  ghz: ['ghz', 'gigahertz'],
  g: ['g', 'gram', 'grams', 'gramme', 'grammes'],
  kg: ['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms'],
  lb: ['lb', 'lbs', 'pound', 'pounds'],
  oz: ['oz', 'ounce', 'ounces'],
  ml: ['ml', 'milliliter', 'milliliters', 'millilitre', 'millilitres'],
  l: ['l', 'liter', 'liters', 'litre', 'litres'],
  mp: ['mp', 'megapixel', 'megapixels'],
  pack: ['pack', 'packs', 'pk'],
};

const UNITS = new Map<string, string>();
for (const [unit, spellings] of Object.entries(UNIT_SPELLINGS))
  for (const spelling of spellings) UNITS.set(spelling, unit);

/** The canonical unit of a spelling, or undefined. */
export function unitOf(word: string): string | undefined {
  return UNITS.get(word);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A unit spelling after a number in a query (glued, or after spaces or a hyphen).
const QUERY_UNIT = new RegExp(
  `([0-9])[\\s-]*(${[...UNITS.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|')})(?![\\p{L}\\p{N}])`,
  'giu',
);

/**
 * A query with the unit after each number written as the unit, apart (`6'` → `6 ft`, `32GB` →
 * `32 gb`): the query is cut into words at spaces before its words are analysed, so the unit
 * rule looks across them here.
 */
export function unitsInQuery(q: string): string {
  return q.replace(
    QUERY_UNIT,
    (match: string, digit: string, spelling: string, offset: number, whole: string) => {
      const lower = spelling.toLowerCase();
      const rest = whole.slice(offset + match.length);
      if (lower === 'in' && /^\s*[0-9]/.test(rest)) return match;
      // A `"` after a number closes a quoted phrase when one is open (`"iphone 13"`): not inches.
      if (spelling === '"' && (whole.slice(0, offset).match(/"/g)?.length ?? 0) % 2 === 1) return match;
      // `32g` at the end is `32gb` being typed, not 32 grams yet.
      if (rest === '' && /^[a-z]$/.test(lower)) return match;
      return `${digit} ${UNITS.get(lower) ?? lower}`;
    },
  );
}

const NUMBER = /^[0-9]+(?:\.[0-9]+)*$/;

/** Digits, or digits with decimal points (`5.5`). */
export function isNumberWord(word: string): boolean {
  return NUMBER.test(word);
}

// A word with inner hyphens, apostrophes (after a letter) and dots; or a lone quote mark.
// (NFKD turns a double prime ″ into two primes ′′.)
const CHUNK = /[\p{L}\p{N}]+(?:(?:[-.]|(?<=\p{L})['’])[\p{L}\p{N}]+)*|′′|['’′"″”]/gu;
const QUOTE = /^(?:['’′"″”]|′′)$/u;
// A dot not between two digits separates words.
const LOOSE_DOT = /(?<![0-9])\.|\.(?![0-9])/;
const POSSESSIVE = /['’]s$/u;
const APOSTROPHES = /['’]/gu;
// Runs of digits (with decimal points) and runs of anything else.
const PIECES = /[0-9]+(?:\.[0-9]+)*|[^0-9.]+/g;

/** Lower-case ASCII letters only, or digits only: a chunk the rules leave as one word. */
function plain(chunk: string): boolean {
  const first = chunk.charCodeAt(0);
  const digits = first >= 48 && first <= 57;
  for (let i = 0; i < chunk.length; i += 1) {
    const c = chunk.charCodeAt(i);
    if (digits ? c < 48 || c > 57 : c < 97 || c > 122) return false;
  }
  return true;
}

/** A piece of text between hyphens, as words: dots, apostrophes and numbers handled. */
function pieceWords(piece: string, out: string[]): void {
  for (const part of piece.split(LOOSE_DOT)) {
    const joined = part.replace(POSSESSIVE, '').replace(APOSTROPHES, '');
    for (const m of joined.matchAll(PIECES)) out.push(m[0]);
  }
}

/**
 * The words of folded text by the catalogue rules, stop words included, in order. `query`: a
 * hyphenated word gives its parts joined (`usb-c` → `usbc`) when they join into one word; else
 * (an offer's text) its parts, and the joined word after all the text's other words (not with
 * `joinedAfter` false: a quoted phrase is matched on the parts, where the offer has them).
 */
export function catalogueWords(folded: string, query: boolean, joinedAfter = !query): string[] {
  const out: string[] = [];
  const joinedForms: string[] = [];
  for (const m of folded.matchAll(CHUNK)) {
    const chunk = m[0];
    // Most chunks are one plain word: what the rules below would make of it, without their regexps.
    if (plain(chunk)) {
      out.push(chunk);
      continue;
    }
    if (QUOTE.test(chunk)) {
      out.push(chunk);
      continue;
    }
    const pieces = chunk.split('-');
    if (pieces.length === 1) {
      pieceWords(chunk, out);
      continue;
    }
    const parts: string[] = [];
    for (const piece of pieces) pieceWords(piece, parts);
    const joined: string[] = [];
    pieceWords(pieces.join(''), joined);
    const one = joined.length === 1 && parts.length > 1;
    if (query && one) out.push(joined[0] as string);
    else out.push(...parts);
    if (!query && one && joinedAfter) joinedForms.push(joined[0] as string);
  }
  return applyUnits(out).concat(joinedForms);
}

/** Unit spellings right after a number become the unit; other quote marks go. */
function applyUnits(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i] as string;
    const previous = out[out.length - 1];
    const unit = previous !== undefined && isNumberWord(previous) ? UNITS.get(t) : undefined;
    // `3 in 1` is not three inches.
    const next = tokens[i + 1];
    if (unit !== undefined && !(t === 'in' && next !== undefined && isNumberWord(next))) out.push(unit);
    else if (!QUOTE.test(t)) out.push(t);
  }
  return out;
}
