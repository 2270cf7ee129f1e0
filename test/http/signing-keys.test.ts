import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigningKeys } from '../../src/auth/signing-keys.js';
import { migrate } from '../../src/db/migrate.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createSecretBox, SecretBoxError } from '../../src/platform/secret-box.js';
import { backends, createTestDatabase, type TestDatabase } from '../support/databases.js';

/** Instances share signing keys through the database; they must share the master secret too. */
for (const { dialect, available } of backends()) {
  describe.skipIf(!available)(`signing keys across instances on ${dialect}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      await migrate(database.db);
    });
    afterAll(async () => {
      await database.drop();
    });

    const instance = (secret: Buffer, clock = new ManualClock()) =>
      createSigningKeys({
        db: database.db,
        clock,
        box: createSecretBox(secret, 'signing-keys'),
        accessTokenTtlMs: 3_600_000,
        clockSkewMs: 60_000,
      });

    it('two instances with one secret sign with the same key; creating it concurrently makes one', async () => {
      const secret = randomBytes(32);
      const [a, b] = await Promise.all([
        instance(secret).signer('testing'),
        instance(secret).signer('testing'),
      ]);
      expect(a.kid).toBe(b.kid);
      const rows = await database.db.all('SELECT kid FROM signing_keys WHERE environment = ?', ['testing']);
      expect(rows).toHaveLength(1);
    });

    it('an instance with another master secret refuses to sign, loudly', async () => {
      await expect(instance(randomBytes(32)).signer('testing')).rejects.toThrow(SecretBoxError);
    });

    it('a rotation on one instance is used by another once its cache is checked', async () => {
      const secret = randomBytes(32);
      const a = instance(secret);
      const clock = new ManualClock();
      const b = instance(secret, clock);
      const before = await b.signer('production');
      const rotated = await a.rotate('production');
      expect(rotated.retired?.kid).toBe(before.kid);
      // b trusts its cache for 500 ms of its clock, then re-reads the change counter.
      clock.advance(499);
      expect((await b.signer('production')).kid).toBe(before.kid);
      clock.advance(1);
      expect((await b.signer('production')).kid).toBe(rotated.active.kid);
      expect(await b.publicKey('production', before.kid)).toBeDefined();
    });
  });
}
