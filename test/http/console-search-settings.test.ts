import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { PageAgent } from '../support/portal.js';

/** The console page "Search settings" (issue 23): declare, change, remove; audited; CSRF; errors as pages. */
describe('console search settings', () => {
  let t: TestContext;
  let browser: PageAgent;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
    await t.deps.operators.add({ email: 'ops@example.com', password: 'operator-password-1' });
    browser = new PageAgent(t.apps.production);
    expect((await browser.signIn('console', 'ops@example.com', 'operator-password-1')).statusCode).toBe(303);
  });
  afterAll(async () => {
    await t.close();
  });

  it('declares, lists and removes an attribute per environment, each change audited', async () => {
    const empty = await browser.get('/console/search-settings');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('Attributes of testing');
    const declared = await browser.post('/console/search-settings/testing/attributes', {
      name: 'rooms',
      type: 'number',
      facet: 'yes',
      sort: 'yes',
    });
    expect(declared.statusCode).toBe(303);
    const listed = await browser.get('/console/search-settings');
    expect(listed.body).toContain('attr.rooms');
    expect(listed.body).toContain('re-indexes in the background');
    expect((await t.deps.searchSettings.read('testing')).attributes).toEqual([
      { name: 'rooms', type: 'number', facet: true, sort: true, searchable: false },
    ]);
    expect((await t.deps.searchSettings.read('production')).attributes).toEqual([]);
    const removed = await browser.post('/console/search-settings/testing/attributes/rooms/remove', {});
    expect(removed.statusCode).toBe(303);
    expect((await t.deps.searchSettings.read('testing')).attributes).toEqual([]);
    const actions = (await t.deps.audit.list({})).filter((e) => e.action.startsWith('search.'));
    expect(actions.map((e) => `${e.action} ${e.targetId} ${e.actorEmail}`)).toEqual([
      'search.attribute_removed testing:rooms ops@example.com',
      'search.attribute_set testing:rooms ops@example.com',
    ]);
  });

  it('answers a refused declaration, a forged form and an unknown environment with HTML error pages', async () => {
    await browser.get('/console/search-settings');
    const bad = await browser.post('/console/search-settings/testing/attributes', {
      name: 'brand',
      type: 'string',
      sort: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('text/html');
    expect(bad.body).toContain('number and boolean');
    const forged = await browser.post(
      '/console/search-settings/testing/attributes',
      { name: 'x', type: 'number' },
      { csrf: 'forged' },
    );
    expect(forged.statusCode).toBe(403);
    await browser.get('/console/search-settings');
    const nowhere = await browser.post('/console/search-settings/staging/attributes', {
      name: 'x',
      type: 'number',
    });
    expect(nowhere.statusCode).toBe(404);
    expect((await t.deps.searchSettings.read('testing')).attributes).toEqual([]);
  });

  it('declares a searchable string attribute and keeps it searchable when the form says so (ADR 0042)', async () => {
    await browser.get('/console/search-settings');
    const declared = await browser.post('/console/search-settings/testing/attributes', {
      name: 'brand',
      type: 'string',
      facet: 'yes',
      searchable: 'yes',
    });
    expect(declared.statusCode).toBe(303);
    expect((await t.deps.searchSettings.read('testing')).attributes).toEqual([
      { name: 'brand', type: 'string', facet: true, sort: false, searchable: true },
    ]);
    const page = await browser.get('/console/search-settings');
    expect(page.body).toContain('searchable (strings: q matches its words)');
    const removed = await browser.post('/console/search-settings/testing/attributes/brand/remove', {});
    expect(removed.statusCode).toBe(303);
  });

  it('sets and clears the ranking tie-break from the list of sort number attributes, audited', async () => {
    await t.deps.searchSettings.setAttribute(
      { kind: 'cli', id: 'test', email: null, ip: null },
      'production',
      { name: 'popularity', type: 'number', facet: false, sort: true, searchable: false },
    );
    const page = await browser.get('/console/search-settings');
    expect(page.body).toContain('Ranking of production');
    expect(page.body).toContain('<option value="attr.popularity:desc">popularity, greatest first</option>');
    const set = await browser.post('/console/search-settings/production/ranking', {
      rankBy: 'attr.popularity:desc',
    });
    expect(set.statusCode).toBe(303);
    expect((await t.deps.searchSettings.read('production')).rankBy).toEqual({
      name: 'popularity',
      descending: true,
    });
    const shown = await browser.get('/console/search-settings');
    expect(shown.body).toContain('<code>attr.popularity:desc</code>, then the newest');
    expect(shown.body).toContain('<option value="attr.popularity:desc" selected>');
    const refused = await browser.post('/console/search-settings/production/ranking', {
      rankBy: 'attr.nothing:desc',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('No attribute nothing is declared');
    await browser.get('/console/search-settings');
    const malformed = await browser.post('/console/search-settings/production/ranking', {
      rankBy: 'popular',
    });
    expect(malformed.statusCode).toBe(400);
    await browser.get('/console/search-settings');
    expect(
      (await browser.post('/console/search-settings/production/ranking', { rankBy: 'none' })).statusCode,
    ).toBe(303);
    expect((await t.deps.searchSettings.read('production')).rankBy).toBeNull();
    const changes = (await t.deps.audit.list({ action: 'search.settings_changed' })).map(
      (e) => `${e.targetId} ${JSON.stringify(e.detail.rankBy)} ${e.actorEmail}`,
    );
    expect(changes).toEqual([
      'production null ops@example.com',
      'production "attr.popularity:desc" ops@example.com',
    ]);
  });

  it('lists, adds and removes synonym rules per environment, audited, refusing bad ones as pages', async () => {
    await browser.get('/console/search-settings');
    const added = await browser.post('/console/search-settings/testing/synonyms', {
      words: 'tv,  television set ,',
      oneWay: 'yes',
    });
    expect(added.statusCode).toBe(303);
    const [rule] = await t.deps.synonyms.list('testing');
    expect(rule).toMatchObject({ oneWay: true, words: ['tv', 'television set'] });
    expect(await t.deps.synonyms.list('production')).toEqual([]);
    const page = await browser.get('/console/search-settings');
    expect(page.body).toContain('Synonyms of testing');
    expect(page.body).toContain('<code>tv</code> finds <code>television set</code>');
    expect(page.body).toContain(`/console/search-settings/testing/synonyms/${rule?.id}/remove`);
    const one = await browser.post('/console/search-settings/testing/synonyms', { words: 'sofa' });
    expect(one.statusCode).toBe(400);
    expect(one.headers['content-type']).toContain('text/html');
    expect(one.body).toContain('2 to 20 words');
    await browser.get('/console/search-settings');
    const elsewhere = await browser.post(
      `/console/search-settings/production/synonyms/${rule?.id}/remove`,
      {},
    );
    expect(elsewhere.statusCode).toBe(404);
    await browser.get('/console/search-settings');
    const removed = await browser.post(`/console/search-settings/testing/synonyms/${rule?.id}/remove`, {});
    expect(removed.statusCode).toBe(303);
    expect(await t.deps.synonyms.list('testing')).toEqual([]);
    const actions = (await t.deps.audit.list({ action: 'synonyms.' })).map(
      (e) => `${e.action} ${e.targetId} ${e.actorEmail}`,
    );
    expect(actions).toEqual([
      `synonyms.remove ${rule?.id} ops@example.com`,
      `synonyms.add ${rule?.id} ops@example.com`,
    ]);
  });
});
