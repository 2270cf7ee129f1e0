import type { SqlValue } from './database.js';

/**
 * A PostgreSQL array literal (`{"a","b",NULL}`) for one bound parameter cast to an array type,
 * as in `unnest(?::text[], ?::bigint[])`: a whole batch of rows travels as one parameter per
 * column, so one short statement writes thousands of rows (ADR 0012). Every element is quoted
 * (backslash and double quote escaped), which is valid for text and number arrays alike.
 */
export function pgArray(values: readonly SqlValue[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) out += ',';
    const value = values[i];
    if (value === null || value === undefined) out += 'NULL';
    else if (typeof value === 'number') out += String(value);
    else out += `"${value.replace(/[\\"]/g, '\\$&')}"`;
  }
  return `${out}}`;
}
