import { readFileSync } from 'node:fs';
import { parseTextQuery } from '../../src/search/analysis/text.js';
import type { IndexDocument } from '../../src/search/engine.js';
import { createSearchIndex } from '../../src/search/index/search-index.js';
import { engineQuery, textDoc } from './engine-query.js';

/**
 * The catalogue sample (test/fixtures/catalogue-sample.ndjson): about 300 product and listing
 * titles with descriptions written in the style of electronics and fashion shops and
 * classifieds (no public dataset small enough, with a licence, was found in the npm registry).
 * Each query shape of issue 23 comes with a judgement written as a regular expression over the
 * title and description, independent of the engine, so precision can be measured.
 */

const T0 = Date.UTC(2026, 0, 1);

interface SampleLine {
  title: string;
  description: string;
  category: string;
}

export function catalogueDocuments(): IndexDocument[] {
  const url = new URL('../fixtures/catalogue-sample.ndjson', import.meta.url);
  const lines = readFileSync(url, 'utf8').split('\n').filter(Boolean);
  return lines.map((line, i) => {
    const l = JSON.parse(line) as SampleLine;
    // Spread, so that "newest first" does not decide the order of equals by accident.
    const published = T0 - ((i * 7919) % 1000) * 60_000;
    return {
      ...textDoc(`off_${String(i).padStart(4, '0')}`, l.title, published, l.description),
      category: l.category,
    };
  });
}

export interface Judged {
  q: string;
  /** What a shopper typing `q` wants (title or description). */
  relevant: RegExp;
}

/** The query shapes of issue 23, each with what counts as a right answer. */
export const JUDGED: readonly Judged[] = [
  { q: '32 gb ', relevant: /\b32\s*(gb|gigabytes?)\b/i },
  {
    q: '6ft lightning cable ',
    relevant: /\b6\s*(ft|feet|foot|')(?![a-z]).*lightning|lightning.*\b6\s*(ft|feet|foot|')(?![a-z])/i,
  },
  { q: '5.5 inch ', relevant: /\b5\.5\s*(-?inch(es)?|in\b|")/i },
  { q: 'otter box ', relevant: /\botter\s*-?box\b/i },
  { q: 'tshirt ', relevant: /\bt[\s-]?shirt/i },
  { q: "men's smartwatch band ", relevant: /\bmen'?s\b.*\bsmart[\s-]?watch\b.*\bband|\bband.*\bfor men\b/i },
  { q: '55 inch tv ', relevant: /\b55\s*(-?inch(es)?|in\b|")/i },
  { q: 'usb c cable ', relevant: /\busb[\s-]?c\b|type[\s-]?c\b/i },
  { q: '1 terabyte ', relevant: /\b1\s*(tb|terabytes?)\b/i },
  { q: "o'neill ", relevant: /\bo'?\s?neill\b/i },
  { q: 'iphone ', relevant: /\biphone\b/i },
];

export interface Measured {
  q: string;
  /** Relevant offers among the first five (the first n when the sample has only n < 5). */
  precisionAt5: number;
  /** Relevant offers matched, of those the sample has. */
  recall: number;
  /** Relevant offers among all matched (what `total` and facets count). */
  precision: number;
  total: number;
  /** Offers of the sample the judgement calls relevant. */
  relevantTotal: number;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** Precision at 5 of each judged query over the sample (relevance order). */
export function measureCatalogue(more: Parameters<typeof engineQuery>[1] = {}): Measured[] {
  const docs = catalogueDocuments();
  const index = createSearchIndex();
  for (const d of docs) index.upsert(d);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const isRelevant = (j: Judged, d: IndexDocument) => j.relevant.test(`${d.title}\n${d.description}`);
  return JUDGED.map((j) => {
    const result = index.search(
      engineQuery(T0, { text: parseTextQuery(j.q), sort: 'relevance', limit: docs.length, ...more }),
      [],
    );
    const relevant = result.ids.map((id) => isRelevant(j, byId.get(id) as IndexDocument));
    const relevantTotal = docs.filter((d) => isRelevant(j, d)).length;
    const top = Math.min(5, relevantTotal);
    const count = (xs: boolean[]) => xs.filter(Boolean).length;
    return {
      q: j.q,
      precisionAt5: round(count(relevant.slice(0, top)) / top),
      recall: round(count(relevant) / relevantTotal),
      precision: result.total === 0 ? 0 : round(count(relevant) / result.total),
      total: result.total,
      relevantTotal,
    };
  });
}
