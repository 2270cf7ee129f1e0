import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NOT_UTF8, ndjsonRows, type SourceRow } from './import-source.js';

const collect = async (chunks: (Buffer | string)[]) => {
  const rows: SourceRow[] = [];
  for await (const row of ndjsonRows(Readable.from(chunks))) rows.push(row);
  return rows;
};

describe('NDJSON rows (issue 26)', () => {
  it('decode each line with a fatal decoder: invalid UTF-8 is that line’s error, never U+FFFD', async () => {
    const body = Buffer.concat([
      Buffer.from('{"a":"caf\u00e9"}\n'),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]), // {"a":"\xff"}
      Buffer.from('\r\n{"a":"ok"}\r\n{"a":1}'),
    ]);
    // Split inside the two-byte é and inside a line: lines are cut on bytes, not on chunks.
    const rows = await collect([body.subarray(0, 11), body.subarray(11, 20), body.subarray(20)]);
    expect(rows).toEqual([
      { line: 1, record: { a: 'café' } },
      { line: 2, error: NOT_UTF8 },
      { line: 4, record: { a: 'ok' } },
      { line: 5, record: { a: 1 } },
    ]);
  });

  it('lets the event loop run while it parses a long body', async () => {
    const body = '{}\n'.repeat(300_000);
    let turns = 0;
    let reading = true;
    const tick = () => {
      turns += 1;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const rows = await collect([body]);
    reading = false;
    expect(rows).toHaveLength(300_000);
    expect(turns).toBeGreaterThan(1);
  });
});
