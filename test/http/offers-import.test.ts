import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOfferRecord } from '../../src/offers/offer-record.js';
import { generateOffers } from '../../src/offers/seed.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { backends } from '../support/databases.js';

/**
 * `POST /v1/offers/import` and `DELETE /v1/offers/by-external-id/{externalId}` (SPEC §6.2,
 * issue 16): counts and line errors, idempotency, the size bound, and projects' isolation.
 */
const NDJSON = { 'content-type': 'application/x-ndjson' };
const MAX_BYTES = 300_000;

/** Offers of the seed generator, their external ids made distinct per `seed` (one set per test). */
const records = (count: number, seed: number) =>
  [...generateOffers({ count, seed })].map((o) => ({
    ...toOfferRecord(o),
    externalId: `s${seed}-${o.externalId}`,
    status: 'active',
    expiresAt: null,
  }));
const ndjson = (rows: unknown[]) =>
  `${rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;

for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`offers over HTTP on ${dialect}`, () => {
    let t: TestContext;
    /** A write key of the fixture project, and one of a second project. */
    let writer: string;
    let other: string;
    let otherProjectId: string;
    beforeAll(async () => {
      t = await createTestContext(dialect, { IMPORT_MAX_BYTES: String(MAX_BYTES) });
      writer = t.fixtures.keys.testing.key;
      await t.deps.keys.grantWrite(t.fixtures.keys.testing.id);
      const project = await t.deps.projects.add({
        name: 'Second shop',
        ownerEmail: 'integrator@example.com',
      });
      otherProjectId = project.id;
      const issued = await t.deps.keys.issue({ projectId: project.id, environment: 'testing' });
      await t.deps.keys.grantWrite(issued.record.id);
      other = issued.key;
    });
    afterAll(async () => {
      await t.close();
    });

    const post = (key: string, payload: string | Readable, headers: Record<string, string> = NDJSON) =>
      t.apps.testing.inject({
        method: 'POST',
        url: '/v1/offers/import',
        headers: { 'x-api-key': key, ...headers },
        payload,
      });
    const search = async (q: string) =>
      (
        await t.apps.testing.inject({
          method: 'GET',
          url: `/v1/offers/?q=${encodeURIComponent(q)}&limit=100`,
          headers: { 'x-api-key': writer },
        })
      ).json() as { data: { id: string; title: string }[]; total: { value: number } };

    it('imports valid lines, reports each invalid one with its line and externalId, keeps the rest', async () => {
      const rows = records(5, 1);
      const body = ndjson([
        rows[0],
        '{"externalId": "broken", ',
        rows[1],
        '',
        { ...rows[2], price: { amount: '-1', currency: 'EUR' } },
        { ...rows[3], colour: 'blue' },
        rows[4],
        '[1, 2]',
      ]);
      const res = await post(writer, body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        created: 3,
        updated: 0,
        unchanged: 0,
        failed: 4,
        errors: [
          { line: 2, externalId: null, code: 'invalid_json', message: 'is not valid JSON' },
          {
            line: 5,
            externalId: rows[2]?.externalId,
            code: 'invalid_offer',
            message: expect.stringMatching(/^price\.amount /),
          },
          {
            line: 6,
            externalId: rows[3]?.externalId,
            code: 'invalid_offer',
            message: 'colour is not a known field',
          },
          { line: 8, externalId: null, code: 'invalid_offer', message: expect.any(String) },
        ],
      });
      // Searchable at once, and remembered as the project's.
      const title = rows[4]?.title as string;
      expect((await search(`"${title}"`)).data.map((o) => o.title)).toContain(title);
      const owned = await t.database.db.all<{ project_id: string | null }>(
        'SELECT project_id FROM offers WHERE project_id IS NOT NULL',
      );
      expect(owned).toEqual([
        { project_id: t.fixtures.projectId },
        { project_id: t.fixtures.projectId },
        { project_id: t.fixtures.projectId },
      ]);
    });

    it('changes nothing when the same body is sent twice, and counts an edited line as updated', async () => {
      const rows = records(40, 2);
      const first = await post(writer, ndjson(rows));
      expect(first.json()).toMatchObject({ created: 40, updated: 0, unchanged: 0, failed: 0 });
      const before = await t.database.db.all('SELECT id, updated_at FROM offers ORDER BY id');
      t.clock.advance(60_000);
      const again = await post(writer, ndjson(rows));
      expect(again.json()).toEqual({ created: 0, updated: 0, unchanged: 40, failed: 0, errors: [] });
      expect(await t.database.db.all('SELECT id, updated_at FROM offers ORDER BY id')).toEqual(before);
      const edited = rows.map((r, i) =>
        i === 7 ? { ...r, title: 'Edited title for the idempotency test' } : r,
      );
      const third = await post(writer, ndjson(edited));
      expect(third.json()).toMatchObject({ created: 0, updated: 1, unchanged: 39, failed: 0 });
      expect((await search('"Edited title for the idempotency test"')).total.value).toBe(1);
    });

    it('keeps projects apart: the same externalId is two offers, and a project changes only its own', async () => {
      const rows = records(3, 3);
      expect((await post(writer, ndjson(rows))).json()).toMatchObject({ created: 3 });
      const theirs = rows.map((r) => ({ ...r, title: `${r.title} (second shop)` }));
      expect((await post(other, ndjson(theirs))).json()).toMatchObject({ created: 3, updated: 0 });
      const externalId = rows[0]?.externalId as string;
      const found = await search(`"${rows[0]?.title}"`);
      expect(found.total.value).toBe(2);
      // The second project withdraws its copy; the first project's stays active.
      const del = await t.apps.testing.inject({
        method: 'DELETE',
        url: `/v1/offers/by-external-id/${encodeURIComponent(externalId)}`,
        headers: { 'x-api-key': other },
      });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toMatchObject({ externalId, status: 'withdrawn' });
      const after = await search(`"${rows[0]?.title}"`);
      expect(after.total.value).toBe(1);
      expect(after.data[0]?.title).toBe(rows[0]?.title);
      expect(after.data[0]?.id).not.toBe(del.json().id);
      const withdrawn = await t.apps.testing.inject({
        method: 'GET',
        url: `/v1/offers/${del.json().id}`,
        headers: { 'x-api-key': writer },
      });
      expect(withdrawn.json()).toMatchObject({
        status: 'withdrawn',
        title: `${rows[0]?.title} (second shop)`,
      });
      // Withdrawing again is harmless; an external id the project never sent is 404.
      const twice = await t.apps.testing.inject({
        method: 'DELETE',
        url: `/v1/offers/by-external-id/${encodeURIComponent(externalId)}`,
        headers: { 'x-api-key': other },
      });
      expect(twice.statusCode).toBe(200);
      const unknown = await t.apps.testing.inject({
        method: 'DELETE',
        url: '/v1/offers/by-external-id/never-sent',
        headers: { 'x-api-key': other },
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 'offer_not_found' });
      const rowsOfSecond = await t.database.db.all<{ project_id: string }>(
        'SELECT project_id FROM offers WHERE project_id = ?',
        [otherProjectId],
      );
      expect(rowsOfSecond).toHaveLength(3);
    });

    it('leaves the operator’s offers alone: an operator import with the same externalId is another offer', async () => {
      const [row] = records(1, 4);
      const { parseOfferRecord } = await import('../../src/offers/offer-record.js');
      const parsed = parseOfferRecord({ ...row, title: 'Operator copy of the offer' });
      if (!parsed.ok) throw new Error(parsed.reason);
      await t.deps.offers.upsertMany('testing', [parsed.offer]);
      expect((await post(writer, ndjson([row]))).json()).toMatchObject({ created: 1 });
      const del = await t.apps.testing.inject({
        method: 'DELETE',
        url: `/v1/offers/by-external-id/${row?.externalId}`,
        headers: { 'x-api-key': writer },
      });
      expect(del.statusCode).toBe(200);
      expect((await search('"Operator copy of the offer"')).total.value).toBe(1);
    });

    it('lists at most 1 000 line errors and counts them all', async () => {
      const body = `${Array.from({ length: 1200 }, (_, i) => `{"n": ${i}}`).join('\n')}\n`;
      const res = await post(writer, body);
      expect(res.statusCode).toBe(200);
      expect(res.json().failed).toBe(1200);
      expect(res.json().errors).toHaveLength(1000);
      expect(res.json().errors[999].line).toBe(1000);
    });

    it('refuses a body over IMPORT_MAX_BYTES with 413 problem+json, declared or streamed', async () => {
      const big = ndjson(records(600, 5));
      expect(big.length).toBeGreaterThan(MAX_BYTES);
      const declared = await post(writer, big);
      expect(declared.statusCode).toBe(413);
      expect(declared.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(declared.json()).toMatchObject({ code: 'payload_too_large', status: 413 });
      expect(declared.json().detail).toContain('Nothing was imported');
      // Without a Content-Length the bound is enforced while reading.
      const streamed = await post(writer, Readable.from([Buffer.from(big)]));
      expect(streamed.statusCode).toBe(413);
      expect(streamed.json()).toMatchObject({ code: 'payload_too_large' });
    });

    it('refuses another content type with 415 problem+json', async () => {
      const res = await post(writer, JSON.stringify(records(1, 6)[0]), {
        'content-type': 'application/json',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
    });

    it('checks the scope before reading the body: a key without offers:write learns nothing', async () => {
      const res = await post(t.fixtures.keys.production.key, 'not even json');
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('api_key_wrong_environment');
      const noKey = await post('', 'x', NDJSON);
      expect(noKey.statusCode).toBe(401);
    });
  });
}
