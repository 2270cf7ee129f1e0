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
const MAX_FAILED = 1500;

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
      t = await createTestContext(
        dialect,
        { IMPORT_MAX_BYTES: String(MAX_BYTES), IMPORT_MAX_FAILED_LINES: String(MAX_FAILED) },
        { environments: ['testing'] },
      );
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

    it('refuses invalid UTF-8 and lone surrogates line by line; the same body twice then changes nothing', async () => {
      const [a, b, c] = records(3, 20);
      const body = Buffer.concat([
        Buffer.from(`${JSON.stringify(a)}\n`),
        // The title's bytes are not UTF-8 (a lone 0xff): unreadable, not silently U+FFFD.
        Buffer.from(`${JSON.stringify({ ...b, title: 'X' })}\n`.replace('"X"', '"\u0001"')).map((byte) =>
          byte === 0x01 ? 0xff : byte,
        ),
        // A lone surrogate, escaped in JSON: parsed, but no character.
        Buffer.from(`${JSON.stringify({ ...c, title: 'Y' }).replace('"Y"', '"\\ud800 lone"')}\n`),
      ]);
      const first = await post(writer, Readable.from([body]));
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ created: 1, updated: 0, unchanged: 0, failed: 2 });
      expect(first.json().errors).toEqual([
        { line: 2, externalId: null, code: 'invalid_json', message: 'is not valid UTF-8' },
        {
          line: 3,
          externalId: c?.externalId,
          code: 'invalid_offer',
          message: 'title must be valid Unicode (a lone surrogate is not a character)',
        },
      ]);
      const again = await post(writer, Readable.from([body]));
      expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 1, failed: 2 });
    });

    it('a body holding the same externalId twice: the last line wins, and the same body again changes nothing', async () => {
      const [a, b] = records(2, 21);
      const twice = ndjson([a, b, { ...a, title: 'The later line of a repeated externalId' }]);
      const first = await post(writer, twice);
      expect(first.json()).toMatchObject({ created: 2, updated: 0, unchanged: 1, failed: 0 });
      expect((await search('"The later line of a repeated externalId"')).total.value).toBe(1);
      expect((await search(`"${a?.title}"`)).data.map((o) => o.title)).not.toContain(a?.title);
      const again = await post(writer, twice);
      expect(again.json()).toEqual({ created: 0, updated: 0, unchanged: 3, failed: 0, errors: [] });
    });

    it('stops past IMPORT_MAX_FAILED_LINES invalid lines with 422, keeping the valid lines before', async () => {
      const body = (seed: number, invalid: number) => {
        const [first, last] = records(2, seed);
        return ndjson([first, ...Array.from({ length: invalid }, () => '{}'), last]);
      };
      for (const invalid of [MAX_FAILED - 1, MAX_FAILED]) {
        const res = await post(writer, body(30 + invalid, invalid));
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ created: 2, failed: invalid });
      }
      const over = await post(writer, body(40, MAX_FAILED + 1));
      expect(over.statusCode).toBe(422);
      expect(over.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(over.json()).toMatchObject({ code: 'import_too_many_invalid_lines', status: 422 });
      expect(over.json().detail).toContain(`More than ${MAX_FAILED} lines`);
      expect(over.json().detail).toContain('1 created, 0 updated');
      // The line before the invalid ones was kept; the one after them was never read.
      const [first, last] = records(2, 40);
      expect((await search(`"${first?.title}"`)).total.value).toBeGreaterThan(0);
      expect((await search(`"${last?.title}"`)).data.map((o) => o.title)).not.toContain(last?.title);
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
