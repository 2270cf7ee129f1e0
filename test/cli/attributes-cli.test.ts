import { describe, expect, it } from 'vitest';
import { vitrineCli } from '../support/cli.js';

/** `vitrine attributes set|list|remove --env ENV` (issue 23) as processes, audited. */
const { run: vitrine, json } = vitrineCli('attributes');

describe('attribute commands', { timeout: 180_000 }, () => {
  it('declares, lists, changes and removes attributes per environment, each change audited', () => {
    expect(
      json(['attributes', 'set', 'rooms', '--env', 'testing', '--type', 'number', '--facet', '--sort']),
    ).toEqual({
      environment: 'testing',
      attribute: { name: 'rooms', type: 'number', facet: true, sort: true, searchable: false },
    });
    json(['attributes', 'set', 'brand', '--env', 'testing', '--type', 'string', '--facet']);
    json(['attributes', 'set', 'rooms', '--env', 'testing', '--type', 'number']);
    expect(json(['attributes', 'list', '--env', 'testing'])).toEqual({
      environment: 'testing',
      version: 3,
      attributes: [
        { name: 'brand', type: 'string', facet: true, sort: false, searchable: false },
        { name: 'rooms', type: 'number', facet: false, sort: false, searchable: false },
      ],
    });
    expect(json(['attributes', 'list', '--env', 'production']).attributes).toEqual([]);
    expect(vitrine(['attributes', 'list', '--env', 'testing']).stdout).toMatch(
      /^NAME\s+TYPE\s+FACET\s+SORT\n/,
    );

    const refused: Array<[string[], string]> = [
      [['attributes', 'set', '9lives', '--env', 'testing', '--type', 'number'], 'attribute name'],
      [
        ['attributes', 'set', 'brand', '--env', 'testing', '--type', 'string', '--sort'],
        'number and boolean',
      ],
      [['attributes', 'set', 'size', '--env', 'testing', '--type', 'colour'], 'must be one of'],
      [['attributes', 'remove', 'colour', '--env', 'testing'], 'no attribute colour'],
    ];
    for (const [args, message] of refused) {
      const result = vitrine(args);
      expect(result.status, args.join(' ')).not.toBe(0);
      expect(result.stderr).toContain(message);
    }

    expect(json(['attributes', 'remove', 'brand', '--env', 'testing'])).toEqual({
      environment: 'testing',
      removed: 'brand',
    });
    expect(
      json(['attributes', 'list', '--env', 'testing']).attributes.map((a: { name: string }) => a.name),
    ).toEqual(['rooms']);
    const entries = json(['audit', 'list']).entries.filter((e: { action: string }) =>
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
});
