import { ProblemError } from './errors.js';
import { findUnsafeValues } from './safe-values.js';

/**
 * `application/x-www-form-urlencoded` bodies as an object: one string per field, an array when a
 * field repeats (schemas then refuse it by name, as for query parameters).
 */
export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(body)) {
    const existing = out[name];
    if (existing === undefined) out[name] = value;
    else out[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return { ...out };
}

/** A parsed form as single strings, for HTML forms: a repeated field keeps its first value. */
export function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (body && typeof body === 'object') {
    for (const [name, value] of Object.entries(body)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first === 'string') out[name] = first;
    }
  }
  return out;
}

/**
 * Issue 13: a form field with a NUL or another control character (tab and line breaks are text
 * in a textarea) is refused before any handler sees it: PostgreSQL cannot hold a NUL, and a
 * sign-in form looked such an email up and answered 500. `null` when the form is fine.
 */
export function unsafeFormProblem(fields: Record<string, string | string[]>): ProblemError | null {
  const unsafe = findUnsafeValues(fields, { lineBreaks: true });
  if (unsafe.length === 0) return null;
  const errors = unsafe.map((u) => ({ parameter: u.path.replace(/^\//, ''), message: u.message }));
  return new ProblemError('invalid_parameter', errors.map((e) => `${e.parameter} ${e.message}`).join('; '), {
    errors,
  });
}
