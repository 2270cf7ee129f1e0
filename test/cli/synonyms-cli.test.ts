import { describe, expect, it } from 'vitest';
import { vitrineCli } from '../support/cli.js';

/** `vitrine synonyms add|list|remove` (issue 23) as processes, every change audited. */
const { run: vitrine, json } = vitrineCli('synonyms');

describe('synonyms commands', { timeout: 180_000 }, () => {
  it('adds multi-way and one-way rules (words of several words too), lists and removes them, audited', async () => {
    const multi = await json(['synonyms', 'add', '--env', 'testing', 'tv', 'television set']);
    expect(multi).toMatchObject({ environment: 'testing', oneWay: false, words: ['tv', 'television set'] });
    expect(multi.id).toMatch(/^syn_/);
    const oneWay = await json([
      'synonyms',
      'add',
      '--env',
      'testing',
      '--one-way',
      'sofa',
      'couch',
      'settee',
    ]);
    expect(oneWay).toMatchObject({ oneWay: true, words: ['sofa', 'couch', 'settee'] });
    expect(
      (await json(['synonyms', 'list', '--env', 'testing'])).synonyms.map((s: { id: string }) => s.id),
    ).toEqual([multi.id, oneWay.id]);
    expect((await json(['synonyms', 'list', '--env', 'production'])).synonyms).toEqual([]);
    expect((await vitrine(['synonyms', 'list', '--env', 'testing'])).stdout).toContain(
      'sofa → couch, settee',
    );

    // Refused: one word, a word with nothing searchable, a word twice, an unknown id.
    for (const bad of [['tv'], ['tv', '!!'], ['tv', 'TV']]) {
      const refused = await vitrine(['synonyms', 'add', '--env', 'testing', ...bad]);
      expect(refused.status, bad.join(' ')).toBe(2);
    }
    expect((await vitrine(['synonyms', 'remove', '--env', 'production', multi.id])).status).not.toBe(0);

    expect(await json(['synonyms', 'remove', '--env', 'testing', multi.id])).toMatchObject({
      id: multi.id,
      removed: true,
    });
    expect(
      (await json(['synonyms', 'list', '--env', 'testing'])).synonyms.map((s: { id: string }) => s.id),
    ).toEqual([oneWay.id]);
    const audited = (await json(['audit', 'list'])).entries.filter((e: { action: string }) =>
      e.action.startsWith('synonyms.'),
    );
    expect(audited.map((e: { action: string; targetId: string }) => [e.action, e.targetId]).sort()).toEqual(
      [
        ['synonyms.add', multi.id],
        ['synonyms.add', oneWay.id],
        ['synonyms.remove', multi.id],
      ].sort(),
    );
  });
});
