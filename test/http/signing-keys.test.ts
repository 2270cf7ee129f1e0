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

    const instance = (secret: Buffer) =>
      createSigningKeys({
        db: database.db,
        clock: new ManualClock(),
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
      const b = instance(secret);
      const before = await b.signer('production');
      const rotated = await a.rotate('production');
      expect(rotated.retired?.kid).toBe(before.kid);
      // b re-reads the change counter after at most 500 ms of real time.
      const deadline = Date.now() + 2_000;
      let now = await b.signer('production');
      while (now.kid !== rotated.active.kid && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        now = await b.signer('production');
      }
      expect(now.kid).toBe(rotated.active.kid);
      expect(await b.publicKey('production', before.kid)).toBeDefined();
    });
  });
}
