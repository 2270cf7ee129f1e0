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
