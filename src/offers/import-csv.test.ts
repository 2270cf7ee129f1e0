import { describe, expect, it } from 'vitest';
import { type CsvRecord, parseCsv } from './import-csv.js';

async function parse(...chunks: string[]): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  async function* source() {
    yield* chunks;
  }
  for await (const record of parseCsv(source())) out.push(record);
  return out;
}

describe('CSV reader', () => {
  it('splits plain and quoted fields, with doubled quotes, commas and line breaks inside quotes', async () => {
    expect(await parse('a,b,c\n1,"x, y","say ""hi"""\n"multi\nline",,end\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'x, y', 'say "hi"'] },
      { line: 3, fields: ['multi\nline', '', 'end'] },
    ]);
  });

  it('accepts CRLF, a missing final newline and blank lines, whatever the chunking', async () => {
    const text = 'a,b\r\n\r\n"1""",2\r\n3,"4"';
    const expected = [
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['1"', '2'] },
      { line: 4, fields: ['3', '4'] },
    ];
    expect(await parse(text)).toEqual(expected);
    expect(await parse(...text.split(''))).toEqual(expected);
  });

  it('reports a malformed record with its line and keeps reading', async () => {
    expect(await parse('a,b\n"x"y,1\n2,3\n"open,4\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, error: 'text after a closing quote in field 1' },
      { line: 3, fields: ['2', '3'] },
      { line: 4, error: 'a quoted field is never closed' },
    ]);
  });

  it('keeps an empty last field and a record of one empty quoted field', async () => {
    expect(await parse('a,\n""\n')).toEqual([
      { line: 1, fields: ['a', ''] },
      { line: 2, fields: [''] },
    ]);
  });
});
