import { createHash } from 'node:crypto';
import { parseTextQuery } from '../analysis/text.js';
import { forEachIndexWord } from '../analysis/tokens.js';
import { NO_ATTRIBUTES, type SearchSchema } from '../engine.js';
import type { IndexCapture } from './snapshot.js';

/**
 * A snapshot's header and the rules for using it (ADR 0024): the format, the byte order, the
 * analysis fingerprint, the environment, the database identity, the change sequence and the
 * mark, and the declarations' fingerprint. Format 2 added the mark, format 3 the attribute
 * columns and the declarations' fingerprint, format 4 the publisher column and its values
 * (`distinct`), format 5 the searchable attributes' words in the text, their counts by slot and
 * their word bitmaps (ADR 0042), format 6 the proximity floors' stem-pairs filter (ADR 0059): a
 * file of an older format is refused (a full build writes a new one).
 */
export const SNAPSHOT_FORMAT = 6;

/**
 * A hash of the declarations an index was built with (its attribute columns and the ranking
 * tie-break, ADR 0039): a snapshot built under other declarations is not loaded.
 */
export function schemaFingerprint(schema: SearchSchema): string {
  const attributes = [...schema.attributes]
    .map((a) => [a.name, a.type, a.facet, a.sort, a.searchable])
    .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
  const rankBy = schema.rankBy ? [schema.rankBy.name, schema.rankBy.descending] : null;
  return createHash('sha256').update(JSON.stringify({ attributes, rankBy })).digest('hex').slice(0, 32);
}

/** Text covering folding, stop words, stemming, prefixes, phrases and exclusions. */
const PROBE = [
  'The QUICK brown Foxes jumped over the lazy dogs',
  'Café crème, naïve façade; ÉCOLE Ålesund Straße Gdańsk Łódź',
  'running runner runs ran bicycles bicycle e-bike maintenance refrigerators',
  'a an and of to in for on with at by from',
  '"dining chairs" -red -"road bike" lamp refrig',
  'x 1234 4k 2-seater ünïcödé',
  `32GB 6ft 6' 55" 55″ 5.5 inch 1 terabyte 3-in-1 O'Neill men's kids' T-Shirt USB-C otterbox 32g`,
];

/** A hash of what the analysis makes of PROBE: analysis code changed, old snapshots refused. */
export function analysisFingerprint(): string {
  const hash = createHash('sha256');
  // The fields of an offer's text, in their order (ADR 0042).
  hash.update('title, searchable attributes, description\u0002');
  for (const text of PROBE) {
    forEachIndexWord(text, (word) => {
      hash.update(word);
      hash.update('\u0000');
    });
    hash.update(JSON.stringify(parseTextQuery(text)));
    hash.update('\u0001');
  }
  return hash.digest('hex').slice(0, 32);
}

/** What a snapshot says of itself, read before anything else (ADR 0024's validity rules). */
export interface SnapshotHeader {
  format: number;
  fingerprint: string;
  littleEndian: boolean;
  environment: string;
  databaseId: string;
  /** The change sequence the index reflects. */
  applied: number;
  /** The token of the snapshot's mark in the database (migration 81), committed before the file. */
  mark: string;
  /** schemaFingerprint of the declarations the index was built with. */
  schema: string;
  offers: number;
  slots: number;
  writtenAt: string;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Why a snapshot cannot be used against this process and database (null: it can). */
export function headerProblem(
  header: SnapshotHeader,
  expected: { environment: string; databaseId: string; changeSeq: number; schema?: SearchSchema },
): string | null {
  if (header.format !== SNAPSHOT_FORMAT) return `format ${header.format}, not ${SNAPSHOT_FORMAT}`;
  if (header.littleEndian !== LITTLE_ENDIAN) return 'written on a machine of the other byte order';
  if (header.fingerprint !== analysisFingerprint()) return 'made by another version of the text analysis';
  if (header.environment !== expected.environment) return `of environment ${header.environment}`;
  if (header.databaseId !== expected.databaseId) return 'taken from another database';
  if (header.schema !== schemaFingerprint(expected.schema ?? NO_ATTRIBUTES))
    return 'built under other declared attributes or another ranking tie-break';
  if (header.applied > expected.changeSeq)
    return `ahead of the database (sequence ${header.applied} > ${expected.changeSeq}: a restored backup?)`;
  return null;
}

/**
 * Why a snapshot that passed `headerProblem` is not of this database's history: its mark (the
 * `applied` recorded with its token, null when there is none) is missing, as in a backup restored
 * from before it, or disagrees with the header.
 */
export function markProblem(header: SnapshotHeader, recorded: number | null): string | null {
  if (recorded === null) return 'taken on another timeline of this database (a restored backup?)';
  if (recorded !== header.applied) return `its mark records sequence ${recorded}, not ${header.applied}`;
  return null;
}

export function snapshotHeader(
  capture: IndexCapture,
  of: { environment: string; databaseId: string; applied: number; mark?: string },
): SnapshotHeader {
  return {
    format: SNAPSHOT_FORMAT,
    fingerprint: analysisFingerprint(),
    littleEndian: LITTLE_ENDIAN,
    // No mark (bench/snapshot.ts writes files outside a server): no database has it, never loaded.
    mark: '',
    ...of,
    schema: schemaFingerprint(capture.schema),
    offers: capture.live,
    slots: capture.slots,
    writtenAt: new Date().toISOString(),
  };
}
