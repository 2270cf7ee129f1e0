/**
 * What either database would refuse, checked before any store sees a value (issue 13): a NUL
 * byte (PostgreSQL text cannot hold one), other control characters, numbers that are not
 * finite (`Infinity`, `1e309`) and timestamps that JavaScript cannot place on the time line
 * (a leap second `…23:59:60Z`, `2026-02-30`). Schemas say what a value should look like; this
 * says what can be stored and compared at all, the same for query strings, JSON bodies and
 * import rows.
 */
export interface UnsafeValue {
  /** JSON-pointer-style path to the value (`/location/city`), `''` for the root. */
  path: string;
  message: string;
}

// C0 controls and DEL; tab, line feed and carriage return are allowed where `lineBreaks` is.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const CONTROL_MESSAGE = 'must not contain NUL or other control characters';
/**
 * Issue 26: a UTF-16 surrogate without its pair (`"\ud800"` in JSON) is no character at all;
 * SQLite and PostgreSQL stored it differently, so it is refused like a control character.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const SURROGATE_MESSAGE = 'must be valid Unicode (a lone surrogate is not a character)';
export const NON_FINITE_MESSAGE = 'must be a finite number';

export interface SafeValueOptions {
  /** Tab, line feed and carriage return are text (descriptions), not controls. */
  lineBreaks: boolean;
  /** Paths (as `/a/b`) whose strings may hold line breaks even when `lineBreaks` is off. */
  lineBreakPaths?: readonly string[];
}

/** Every string with a control character and every non-finite number inside `value`, object keys included. */
export function findUnsafeValues(value: unknown, options: SafeValueOptions): UnsafeValue[] {
  const found: UnsafeValue[] = [];
  const visit = (node: unknown, path: string, depth: number) => {
    if (depth > 32) return; // JSON bodies are bounded by bodyLimit; this only stops pathological nesting
    if (typeof node === 'string') {
      const lenient = options.lineBreaks || options.lineBreakPaths?.includes(path);
      if ((lenient ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL).test(node)) {
        found.push({ path, message: CONTROL_MESSAGE });
      } else if (LONE_SURROGATE.test(node)) {
        found.push({ path, message: SURROGATE_MESSAGE });
      }
    } else if (typeof node === 'number') {
      if (!Number.isFinite(node)) found.push({ path, message: NON_FINITE_MESSAGE });
    } else if (Array.isArray(node)) {
      // A repeated query parameter is reported once, under its name (not `/tag/3`).
      for (const item of node) visit(item, path, depth + 1);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        const childPath = `${path}/${key}`;
        if (CONTROL.test(key)) found.push({ path: childPath, message: CONTROL_MESSAGE });
        else if (LONE_SURROGATE.test(key)) found.push({ path: childPath, message: SURROGATE_MESSAGE });
        visit(child, childPath, depth + 1);
      }
    }
  };
  visit(value, '', 0);
  // Once per path: a parameter repeated with two bad values is one error.
  const seen = new Set<string>();
  return found.filter((f) => !seen.has(f.path) && seen.add(f.path));
}

/**
 * An RFC 3339 date-time that names a real instant JavaScript can hold: rejects leap seconds
 * (`23:59:60`, which `Date.parse` cannot place), impossible days and anything outside years
 * 0001–9999, which every layer (`Date`, SQLite, PostgreSQL `bigint` ms) stores alike.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

export function isStorableTimestamp(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  const daysInMonth = new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate();
  if (day > daysInMonth) return false;
  return Number.isFinite(Date.parse(value));
}
