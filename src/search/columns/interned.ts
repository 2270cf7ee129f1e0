/** Strings of one column (category, city, …) as small integers. */
export class Interned {
  readonly ids = new Map<string, number>();
  readonly values: string[] = [];

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(value, id);
      this.values.push(value);
    }
    return id;
  }
}

/**
 * A flat copy of a string. Ids built by concatenation (offerIdFor appends character by
 * character) are trees of string pieces in V8, several times the size of the characters; the
 * index keeps a million of them.
 */
export function flatString(value: string): string {
  return JSON.parse(JSON.stringify(value)) as string;
}
