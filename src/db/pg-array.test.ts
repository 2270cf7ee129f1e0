import { describe, expect, it } from 'vitest';
import { pgArray } from './pg-array.js';

describe('pgArray', () => {
  it('quotes text, escapes quotes and backslashes, keeps numbers and NULL', () => {
    expect(pgArray(['a', 'b c', 'say "hi"', 'back\\slash', '', 'NULL', '{x,y}'])).toBe(
      '{"a","b c","say \\"hi\\"","back\\\\slash","","NULL","{x,y}"}',
    );
    expect(pgArray([1, -2.5, null, 1e21])).toBe('{1,-2.5,NULL,1e+21}');
    expect(pgArray([])).toBe('{}');
  });
});
