import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * Shared parts of the fuzz suite (issue 13): the seed, the run counts, hostile values, and the
 * checks every answer must pass. The seed is fixed by default so CI is deterministic; set
 * `FUZZ_SEED=<n>` to replay a failure or `FUZZ_SEED=random` to explore, and `FUZZ_SCALE=<x>`
 * to multiply every count (a long local run). A failure prints its seed and fast-check's path.
 */
const rawSeed = process.env.FUZZ_SEED;
export const FUZZ_SEED =
  rawSeed === 'random' ? Math.floor(Math.random() * 2 ** 31) : rawSeed ? Number(rawSeed) : 20261123;
const scale = Number(process.env.FUZZ_SCALE ?? '1');
export const runs = (n: number) => Math.max(1, Math.round(n * (Number.isFinite(scale) ? scale : 1)));

/** fc.assert with the suite's seed; on failure the seed and the replay path are in the message. */
export async function fuzz<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  numRuns: number,
  check: (value: T) => Promise<void>,
) {
  try {
    await fc.assert(fc.asyncProperty(arbitrary, check), { numRuns, seed: FUZZ_SEED, endOnFailure: true });
  } catch (error) {
    console.error(
      `fuzz "${name}" failed: replay with FUZZ_SEED=${FUZZ_SEED} (fast-check seed and path above)`,
    );
    throw error;
  }
}

const CONTROLS = ['\u0000', '\u0001', '\u0007', '\u001b', '\u007f', '\t', '\n', '\r'];

/** Strings an attacker sends: controls, odd Unicode, long, numeric-looking, SQL-ish, empty. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(...CONTROLS).chain((c) => fc.string({ maxLength: 8 }).map((s) => `${s}${c}${s}`)),
  fc.constantFrom(
    '',
    ' ',
    'Infinity',
    '-Infinity',
    'NaN',
    '1e309',
    '-1e309',
    '-0',
    '0x10',
    '1e-400',
    '99999999999999999999999',
    "' OR 1=1 --",
    '"; DROP TABLE offers; --',
    '%',
    '%00',
    '\\',
    '\ud800',
    '%ED%A0%80',
    '%C3%28',
    '%E0%A4%A',
    '😀',
    'null',
    'true',
    '[]',
    '{}',
    '2026-12-31T23:59:60Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '2026-02-30T00:00:00Z',
    '48.85,2.35',
    '-91,0',
    '90,180.000000001',
  ),
  fc.integer({ min: 200, max: 5000 }).map((n) => 'a'.repeat(n)),
);

export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -0, 2 ** 53, 1e21),
);

/** Any JSON-ish value, hostile leaves included. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Percent-encodes any string, lone surrogates included (as UTF-8 of U+FFFD, as a client would). */
export function encodeAny(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')]
      .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
      .join('');
  }
}

export const PROBLEM = 'application/problem+json; charset=utf-8';

/** The contract of every API answer: never 5xx; every error a problem+json with its own status. */
export function expectApiAnswer(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.headers['content-type'], what).toBe(PROBLEM);
    const body = res.json();
    expect(body.status, what).toBe(res.statusCode);
    expect(body.code, what).toEqual(expect.any(String));
    expect(body.type, what).toMatch(new RegExp(`^https?://[^/]+/docs/errors#${body.code}$`));
  }
}

/** Browser routes: never 5xx; an error is an HTML page (or a redirect). */
export function expectPageAnswer(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.headers['content-type'], `${what} → ${res.statusCode}`).toMatch(/^text\/html/);
  }
}

/** Counts of what each fuzz file did, printed at the end (the closing note of issue 13 quotes them). */
export function report(name: string, counts: Record<string, number>): void {
  console.log(
    `fuzz ${name} (seed ${FUZZ_SEED}): ${Object.entries(counts)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
