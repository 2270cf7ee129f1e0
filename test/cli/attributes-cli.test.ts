import { describe, expect, it } from 'vitest';
import { vitrineCli } from '../support/cli.js';

/** `vitrine attributes set|list|remove --env ENV` (issue 23) as processes, audited. */
const { run: vitrine, json } = vitrineCli('attributes');

describe('attribute commands', { timeout: 180_000 }, () => {
  it('declares, lists, changes and removes attributes per environment, each change audited', async () => {
    expect(
      await json(['attributes', 'set', 'rooms', '--env', 'testing', '--type', 'number', '--facet', '--sort']),
    ).toEqual({
      environment: 'testing',
      attribute: { name: 'rooms', type: 'number', facet: true, sort: true, searchable: false },
    });
    expect(
      await json([
        'attributes',
        'set',
        'brand',
        '--env',
        'testing',
        '--type',
        'string',
        '--facet',
        '--searchable',
      ]),
    ).toEqual({
      environment: 'testing',
      attribute: { name: 'brand', type: 'string', facet: true, sort: false, searchable: true },
    });
    await json(['attributes', 'set', 'rooms', '--env', 'testing', '--type', 'number']);
    expect(await json(['attributes', 'list', '--env', 'testing'])).toEqual({
      environment: 'testing',
      version: 3,
      attributes: [
        { name: 'brand', type: 'string', facet: true, sort: false, searchable: true },
        { name: 'rooms', type: 'number', facet: false, sort: false, searchable: false },
      ],
      rankBy: null,
    });
    expect((await json(['attributes', 'list', '--env', 'production'])).attributes).toEqual([]);
    expect((await vitrine(['attributes', 'list', '--env', 'testing'])).stdout).toMatch(
      /^NAME\s+TYPE\s+FACET\s+SORT\s+SEARCHABLE\nbrand\s+string\s+yes\s+-\s+yes\n/,
    );

    const refused: Array<[string[], string]> = [
      [['attributes', 'set', '9lives', '--env', 'testing', '--type', 'number'], 'attribute name'],
      [
        ['attributes', 'set', 'brand', '--env', 'testing', '--type', 'string', '--sort'],
        'number and boolean',
      ],
      [['attributes', 'set', 'size', '--env', 'testing', '--type', 'colour'], 'must be one of'],
      [
        ['attributes', 'set', 'rooms', '--env', 'testing', '--type', 'number', '--searchable'],
        'searchable is for string attributes',
      ],
      [['attributes', 'remove', 'colour', '--env', 'testing'], 'no attribute colour'],
    ];
    for (const [args, message] of refused) {
      const result = await vitrine(args);
      expect(result.status, args.join(' ')).not.toBe(0);
      expect(result.stderr).toContain(message);
    }

    expect(await json(['attributes', 'remove', 'brand', '--env', 'testing'])).toEqual({
      environment: 'testing',
      removed: 'brand',
    });
    expect(
      (await json(['attributes', 'list', '--env', 'testing'])).attributes.map(
        (a: { name: string }) => a.name,
      ),
    ).toEqual(['rooms']);
    const entries = (await json(['audit', 'list'])).entries.filter((e: { action: string }) =>
      e.action.startsWith('search.'),
    );
    expect(
      entries.map((e: { action: string; targetId: string }) => `${e.action} ${e.targetId}`).reverse(),
    ).toEqual([
      'search.attribute_set testing:rooms',
      'search.attribute_set testing:brand',
      'search.attribute_set testing:rooms',
      'search.attribute_removed testing:brand',
    ]);
  });

  it('sets, shows and clears the ranking tie-break, refusing what is not a --sort number, audited', async () => {
    await json(['attributes', 'set', 'popularity', '--env', 'production', '--type', 'number', '--sort']);
    await json(['attributes', 'set', 'stock', '--env', 'production', '--type', 'number']);
    expect(
      await json(['settings', 'set', '--env', 'production', '--rank-by', 'attr.popularity:desc']),
    ).toEqual({
      environment: 'production',
      rankBy: 'attr.popularity:desc',
    });
    expect(await json(['settings', 'show', '--env', 'production'])).toEqual({
      environment: 'production',
      version: 3,
      rankBy: 'attr.popularity:desc',
    });
    const refused: Array<[string[], string]> = [
      [['settings', 'set', '--env', 'production', '--rank-by', 'popularity'], 'attr.NAME:desc'],
      [['settings', 'set', '--env', 'production', '--rank-by', 'attr.stock:desc'], 'declared with --sort'],
      [['settings', 'set', '--env', 'production', '--rank-by', 'attr.colour:asc'], 'no attribute colour'],
      [['attributes', 'remove', 'popularity', '--env', 'production'], 'ranking tie-break'],
      [['attributes', 'set', 'popularity', '--env', 'production', '--type', 'number'], 'ranking tie-break'],
    ];
    for (const [args, message] of refused) {
      const result = await vitrine(args);
      expect(result.status, args.join(' ')).not.toBe(0);
      expect(result.stderr).toContain(message);
    }
    expect((await vitrine(['settings', 'show', '--env', 'production'])).stdout).toContain(
      'attr.popularity:desc',
    );
    expect((await json(['settings', 'set', '--env', 'production', '--rank-by', 'none'])).rankBy).toBeNull();
    const entries = (await json(['audit', 'list'])).entries.filter(
      (e: { action: string }) => e.action === 'search.settings_changed',
    );
    expect(
      entries.map((e: { targetId: string; detail: unknown }) => [e.targetId, e.detail]).reverse(),
    ).toEqual([
      ['production', { environment: 'production', rankBy: 'attr.popularity:desc' }],
      ['production', { environment: 'production', rankBy: null }],
    ]);
  });
});
