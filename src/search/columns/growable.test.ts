import { describe, expect, it } from 'vitest';
import { GrowableFloat64, GrowableInt32, GrowableUint8, GrowableWords } from './growable.js';

/** Issue 26: past a million elements an array grows by an eighth, not by doubling. */
const MILLION = 1 << 20;

describe('growable arrays', () => {
  it('double while small', () => {
    const small = new GrowableInt32(1000);
    for (let i = 0; i <= 1000; i += 1) small.push(i);
    expect(small.data.length).toBe(2000);
  });

  it('grow by at most 128 Ki elements between 128 Ki and a million (a full array of a million less one: no doubling)', () => {
    const medium = new GrowableInt32(1_000_000);
    for (let i = 0; i <= 1_000_000; i += 1) medium.push(i);
    expect(medium.data.length).toBe(1_000_000 + 131_072);
    expect(medium.data[1_000_000]).toBe(1_000_000);
    const below = new GrowableInt32(131_071);
    for (let i = 0; i <= 131_071; i += 1) below.push(i);
    expect(below.data.length).toBe(2 * 131_071);
  });

  it.each([
    ['Int32', () => new GrowableInt32(MILLION)],
    ['Float64', () => new GrowableFloat64(MILLION)],
    ['Uint8', () => new GrowableUint8(MILLION)],
  ])('%s: a full array of a million elements grows by an eighth, keeping every value', (_name, make) => {
    const array = make();
    for (let i = 0; i <= MILLION; i += 1) array.push(i % 200);
    expect(array.data.length).toBe(MILLION + MILLION / 8);
    expect(array.length).toBe(MILLION + 1);
    expect(array.data[MILLION]).toBe(MILLION % 200);
    expect(array.data[12_345]).toBe(12_345 % 200);
  });

  it('word ids past a million grow by an eighth too', () => {
    const words = new GrowableWords();
    for (let i = 0; i <= MILLION; i += 1) words.push(i % 50_000);
    expect(words.data.length).toBe(MILLION + MILLION / 8);
  });
});
