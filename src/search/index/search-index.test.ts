import { describe, expect, it } from 'vitest';
import { engineQuery } from '../../../test/support/engine-query.js';
import { parseTextQuery } from '../analysis/text.js';
import type { EngineQuery, IndexDocument } from '../engine.js';
import { createSearchIndex } from './search-index.js';

/** One example per relevance rule and typo rule (docs/search.md); the property tests cover the rest. */

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

let serial = 0;
function doc(title: string, description = '', daysOld = 0, id?: string): IndexDocument {
  serial += 1;
  return {
    id: id ?? `off_${String(serial).padStart(4, '0')}`,
    title,
    description,
    category: 'misc',
    tags: [],
    city: 'Paris',
    country: 'FR',
    currency: 'EUR',
    publisher: 'pub_1',
    price: 10_000,
    lat: 48.85,
    lon: 2.35,
    status: 'active',
    publishedAt: T0 - daysOld * DAY,
    updatedAt: T0,
    expiresAt: null,
  };
}

function query(q: string, more: Partial<EngineQuery> = {}): EngineQuery {
  return engineQuery(T0, { text: parseTextQuery(q), sort: 'relevance', ...more });
}

function titles(docs: IndexDocument[], q: string, more: Partial<EngineQuery> = {}): string[] {
  const index = createSearchIndex();
  for (const d of docs) index.upsert(d);
  const byId = new Map(docs.map((d) => [d.id, d.title]));
  return index.search(query(q, more), []).ids.map((id) => byId.get(id) as string);
}

describe('relevance rules, each breaking the ties of the one before', () => {
  it('1. fewer typos first: the word as typed outranks a word one edit away, even a newer one', () => {
    const all = { typoTolerance: 'all' } as const;
    expect(titles([doc('Dining table', '', 0), doc('Dinning room', '', 9)], 'dinning ', all)).toEqual([
      'Dinning room',
      'Dining table',
    ]);
  });

  it('2. proximity: the query words together and in order outrank the words apart', () => {
    expect(
      titles(
        [doc('Road trip to the sea, bike trailer', '', 0), doc('Road bike', '', 9), doc('Bike road', '', 5)],
        'road bike ',
      ),
    ).toEqual(['Road bike', 'Bike road', 'Road trip to the sea, bike trailer']);
  });

  it('3. attribute: a match in the title alone outranks one that needs the description', () => {
    expect(
      titles([doc('Bike', 'A road bike in good shape', 0), doc('Road bike', '', 9)], 'road bike '),
    ).toEqual(['Road bike', 'Bike']);
  });

  it('4. exactness: the whole word typed outranks a stem-only or prefix match', () => {
    expect(titles([doc('Oak chair', '', 0), doc('Oak chairs', '', 9)], 'chairs ')).toEqual([
      'Oak chairs',
      'Oak chair',
    ]);
    expect(titles([doc('Chairs', '', 0), doc('Chair', '', 9)], 'chair')).toEqual(['Chair', 'Chairs']);
  });

  it('5. then newest first, 6. then by id (descending, as the newest-first order)', () => {
    expect(
      titles([doc('Lamp one', '', 5), doc('Lamp two', '', 1), doc('Lamp three', '', 3)], 'lamp '),
    ).toEqual(['Lamp two', 'Lamp three', 'Lamp one']);
    expect(titles([doc('Lamp a', '', 1, 'off_a'), doc('Lamp b', '', 1, 'off_b')], 'lamp ')).toEqual([
      'Lamp b',
      'Lamp a',
    ]);
  });
});

describe('a relevance page of several words, walked newest first', () => {
  // Forty newer matches that all share one rank, one older match that outranks them: the walk
  // through the newest may stop early only at a rank no older match can beat (relevance.ts
  // rankFloor), so stopping after the first page of newer ones would miss the older one.
  const newer = (title: string, description: string) =>
    Array.from({ length: 40 }, (_, i) => doc(`${title} ${i}`, description, i));

  it('finds the one older match with every word in the title among forty newer with them in the description', () => {
    const docs = [...newer('Item', 'good condition'), doc('Good condition sofa', '', 90)];
    expect(titles(docs, 'good condition ')[0]).toBe('Good condition sofa');
  });

  it('finds the one older match with the typed word itself among forty newer with its stem only', () => {
    const docs = [...newer('Good chair', ''), doc('Good chairs', '', 90)];
    expect(titles(docs, 'good chairs ')[0]).toBe('Good chairs');
  });

  it('ranks every match when no match has the words together (a walk that cannot stop is given up)', () => {
    const docs = [...newer('Item', 'good, fair and clean condition'), doc('Old', 'good clean condition', 90)];
    const index = createSearchIndex();
    for (const d of docs) index.upsert(d);
    const page = index.search(query('good condition ', { limit: 3 }), []);
    expect(page.ids[0]).toBe(docs[40]?.id);
    expect(page.ids.slice(1)).toEqual(docs.slice(0, 2).map((d) => d.id));
  });

  it('ranks a typo or a prefix, which no offer holds as typed, newest first among equal ranks', () => {
    const docs = [...newer('Good condition', ''), doc('Old', 'good condition', 90)];
    const index = createSearchIndex();
    for (const d of docs) index.upsert(d);
    for (const q of ['good conditon ', 'good condi']) {
      const page = index.search(query(q, { limit: 5 }), []);
      expect(page.ids).toEqual(docs.slice(0, 5).map((d) => d.id));
      expect(page.total).toBe(41);
    }
  });
});

describe('typo tolerance', () => {
  it('corrects the last word while it is typed: chiars finds chairs', () => {
    expect(titles([doc('Four dining chairs'), doc('Sofa')], 'chiars')).toEqual(['Four dining chairs']);
  });

  it('corrects a prefix: zorglib finds the zorglubs, zorgl finds them too', () => {
    const docs = [doc('Zorglubs for sale'), doc('Zoo')];
    expect(titles(docs, 'zorglib')).toEqual(['Zorglubs for sale']);
    expect(titles(docs, 'zorgl')).toEqual(['Zorglubs for sale']);
  });

  it('leaves words under 5 letters alone, allows 1 edit up to 8 letters and 2 from 9', () => {
    expect(titles([doc('Desk lamp')], 'lamo ')).toEqual([]);
    expect(titles([doc('Desk lamp')], 'lammp ')).toEqual(['Desk lamp']);
    expect(titles([doc('Garden tools')], 'gaarden ')).toEqual(['Garden tools']);
    expect(titles([doc('Garden tools')], 'gaardenn ')).toEqual([]);
    expect(titles([doc('Large refrigerator')], 'refrigaretor ')).toEqual(['Large refrigerator']);
    expect(titles([doc('Large refrigerator')], 'refrigaratorrr ')).toEqual([]);
  });

  it('reports the stems it matched, so highlighting can mark corrected words', () => {
    const index = createSearchIndex();
    index.upsert(doc('Four dining chairs'));
    expect(index.search(query('dinning chiars'), []).matchedStems).toEqual(['chair', 'dine']);
  });

  it('does not correct phrase words', () => {
    expect(titles([doc('Dining chairs')], '"dinning chairs"')).toEqual([]);
    expect(titles([doc('Dining chairs')], '"dining chairs"')).toEqual(['Dining chairs']);
  });
});

describe('index maintenance', () => {
  it('replaces an offer on upsert and forgets it on remove, typo candidates included', () => {
    const index = createSearchIndex();
    index.upsert(doc('Zorglub', '', 0, 'off_z'));
    expect(index.search(query('zorglib '), []).ids).toEqual(['off_z']);
    index.upsert(doc('Table', '', 0, 'off_z'));
    expect(index.search(query('zorglib '), []).ids).toEqual([]);
    expect(index.search(query('table '), []).ids).toEqual(['off_z']);
    index.remove('off_z');
    expect(index.search(query('table '), []).total).toBe(0);
    expect(index.size).toBe(0);
  });

  it('finds words first indexed after the same typo or prefix was searched (the walk cache)', () => {
    const index = createSearchIndex();
    index.upsert(doc('Desk lamp', '', 0, 'off_a'));
    // Both walks are cached with no candidate beyond the first offer's words.
    expect(index.search(query('zorglib '), []).ids).toEqual([]);
    expect(index.search(query('zorg'), []).ids).toEqual([]);
    index.upsert(doc('Zorglub', '', 0, 'off_z'));
    expect(index.search(query('zorglib '), []).ids).toEqual(['off_z']);
    expect(index.search(query('zorg'), []).ids).toEqual(['off_z']);
    index.remove('off_z');
    expect(index.search(query('zorglib '), []).total).toBe(0);
  });

  it('finds offers written after the build was finished on an empty index (an environment with no offers yet)', () => {
    const index = createSearchIndex();
    index.finishBuild?.();
    const chairs = doc('Dining chairs', 'oak, seats four');
    index.upsert(chairs);
    index.upsert(doc('Oak table'));
    expect(index.search(query('chair '), []).ids).toEqual([chairs.id]);
    expect(index.search(query('seats '), []).ids).toEqual([chairs.id]);
    expect(index.search(query('oak '), []).total).toBe(2);
  });
});

describe('distinct=publisher while offers are written', () => {
  it('keeps the first match of each publisher as offers change publisher and are removed', () => {
    const index = createSearchIndex();
    const lamp = (id: string, publisher: string, daysOld: number, title = 'brass lamp') => ({
      ...doc(title, '', daysOld, id),
      publisher,
    });
    index.upsert(lamp('off_a', 'pub_1', 0));
    index.upsert(lamp('off_b', 'pub_1', 1));
    index.upsert(lamp('off_c', 'pub_2', 2));
    index.upsert(lamp('off_d', 'pub_2', 3, 'lamp'));
    const distinct = (more: Partial<EngineQuery> = {}) =>
      index.search(engineQuery(T0, { text: parseTextQuery('lamp'), distinct: 'publisher', ...more }), [
        'city',
      ]);
    let got = distinct();
    expect(got.ids).toEqual(['off_a', 'off_c']);
    expect(got.total).toBe(2);
    // The facets count every match, before the reduction.
    expect(got.facets.city).toEqual([{ value: 'Paris', count: 4 }]);
    // The cursor walks the kept offers only: off_b (pub_1, after off_a) never comes.
    const first = distinct({ limit: 1 });
    expect(first.ids).toEqual(['off_a']);
    expect(distinct({ limit: 1, after: first.nextKeys }).ids).toEqual(['off_c']);
    // off_c moves to pub_1 (an update: a new slot): pub_2 is now off_d's, and off_c is after off_a.
    index.upsert(lamp('off_c', 'pub_1', 2));
    got = distinct();
    expect(got.ids).toEqual(['off_a', 'off_d']);
    expect(got.total).toBe(2);
    // The first of pub_1 removed: the next of pub_1 in the order takes its place.
    index.remove('off_a');
    expect(distinct().ids).toEqual(['off_b', 'off_d']);
    // Every offer of pub_2 gone: one publisher left.
    index.remove('off_d');
    got = distinct();
    expect(got.ids).toEqual(['off_b']);
    expect(got.total).toBe(1);
    expect(distinct({ sort: 'publishedAt' }).ids).toEqual(['off_c']);
  });
});

describe('searchable attributes (ADR 0042)', () => {
  const schema = {
    attributes: [
      { name: 'brand', type: 'string' as const, facet: false, sort: false, searchable: true },
      { name: 'colour', type: 'string' as const, facet: false, sort: false, searchable: false },
    ],
  };
  const docs = [
    { ...doc('Zenith radio', '', 3), attributes: { brand: 'Acme', colour: 'zenith' } },
    { ...doc('Portable radio', '', 2), attributes: { brand: 'Zenith Co', colour: 'teal' } },
    { ...doc('Portable radio', 'sounds like a zenith', 1), attributes: { brand: 'Acme' } },
    { ...doc('Portable radio', '', 0), attributes: { brand: 'Acme', colour: 'zenith' } },
  ];

  it('ranks the title, then the searchable attributes, then the description, by one word or two, and never matches the others', () => {
    for (const tuning of [{}, { walkCost: 0, rankWalkCost: 0 }]) {
      const index = createSearchIndex(tuning, schema);
      for (const d of docs) index.upsert(d);
      const found = (q: string) =>
        index.search(query(q), []).ids.map((id) => docs.findIndex((d) => d.id === id));
      expect(found('zenith ')).toEqual([0, 1, 2]);
      expect(found('radio zenith ')).toEqual([0, 1, 2]);
      expect(found('zenith co')).toEqual([1]);
      expect(found('teal ')).toEqual([]);
      // The relevance keys: attribute 0, 1, 2 (typos, proximity, attribute, inexact, published, id).
      expect(index.search(query('zenith ', { limit: 1 }), []).nextKeys?.slice(0, 4)).toEqual([0, 0, 0, 0]);
      const second = index.search(query('zenith ', { limit: 2 }), []).nextKeys;
      expect(second?.slice(0, 4)).toEqual([0, 0, 1, 0]);
    }
  });

  it('reads a cursor of before ADR 0042 (the description as attribute 1) as the description where nothing is searchable', () => {
    const index = createSearchIndex();
    const plain = [
      doc('Oak table'),
      doc('Chair', 'an oak chair', 1),
      doc('Stool', 'oak stool', 2),
      doc('Bench', 'oak', 3),
    ];
    for (const d of plain) index.upsert(d);
    const first = index.search(query('oak ', { limit: 2 }), []);
    const keys = first.nextKeys as NonNullable<typeof first.nextKeys>;
    expect(keys.slice(0, 4)).toEqual([0, 0, 2, 0]);
    const next = index.search(query('oak ', { limit: 2, after: keys }), []);
    const old = index.search(query('oak ', { limit: 2, after: [0, 0, 1, ...keys.slice(3)] }), []);
    expect(old.ids).toEqual(next.ids);
    expect(next.ids).toEqual([plain[2]?.id, plain[3]?.id]);
  });
});
