import {
  type CryptoKey,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type JWK,
} from 'jose';
import { bumpCounter, readCounter } from '../db/counters.js';
import { type Database, isUniqueViolation } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { newId } from '../platform/ids.js';
import type { SecretBox } from '../platform/secret-box.js';

/**
 * Token-signing keys, one active per environment: Ed25519 (`EdDSA`), private keys
 * sealed with the master secret, public keys published as a JWKS. Rotation retires the active
 * key (its private half is erased at once) and keeps its public half published until every
 * token it signed has expired.
 */
export const SIGNING_ALGORITHM = 'EdDSA';

export interface Signer {
  kid: string;
  privateKey: CryptoKey;
}

export interface SigningKeySummary {
  kid: string;
  environment: Environment;
  createdAt: number;
  retiredAt: number | null;
  /** When the key leaves the JWKS (null while active). */
  unpublishAt: number | null;
}

export interface SigningKeys {
  /** The active key of the environment, created on first use. */
  signer(environment: Environment): Promise<Signer>;
  /** Public key for a `kid` of the environment, if it is still published. */
  publicKey(environment: Environment, kid: string): Promise<CryptoKey | undefined>;
  jwks(environment: Environment): Promise<{ keys: JWK[] }>;
  rotate(environment: Environment): Promise<{ active: SigningKeySummary; retired: SigningKeySummary | null }>;
  list(environment: Environment): Promise<SigningKeySummary[]>;
}

interface KeyRow {
  kid: string;
  environment: Environment;
  public_jwk: string;
  private_key_sealed: string | null;
  created_at: number;
  retired_at: number | null;
}

interface CachedSet {
  loadedAt: number;
  version: number;
  signer: Signer | null;
  /** Every key not yet past its publication end at load time; filtered again at each read. */
  published: Map<string, { key: CryptoKey; jwk: JWK; unpublishAt: number | null }>;
}

/** How long a process trusts its cached key set before checking the change counter again. */
const CACHE_CHECK_MS = 500;

export function createSigningKeys(deps: {
  db: Database;
  clock: Clock;
  box: SecretBox;
  /** Tokens live this long, so a retired key stays published this long (+ skew) after retirement. */
  accessTokenTtlMs: number;
  clockSkewMs: number;
}): SigningKeys {
  const { db, clock, box } = deps;
  const cache = new Map<Environment, CachedSet>();
  const publishedUntil = (retiredAt: number) => retiredAt + deps.accessTokenTtlMs + deps.clockSkewMs;
  const summary = (row: KeyRow): SigningKeySummary => ({
    kid: row.kid,
    environment: row.environment,
    createdAt: Number(row.created_at),
    retiredAt: row.retired_at === null ? null : Number(row.retired_at),
    unpublishAt: row.retired_at === null ? null : publishedUntil(Number(row.retired_at)),
  });

  /** Adds a new active key; `retire` retires the current one in the same transaction (rotation). */
  async function createKey(environment: Environment, retire: boolean): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, {
      crv: 'Ed25519',
      extractable: true,
    });
    const kid = newId('sig');
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
    const sealed = box.seal(await exportPKCS8(privateKey));
    await db.transaction(async (tx) => {
      await bumpCounter(tx, 'signing_keys');
      if (retire) {
        await tx.run(
          'UPDATE signing_keys SET retired_at = ?, private_key_sealed = NULL WHERE environment = ? AND retired_at IS NULL',
          [clock.now(), environment],
        );
      }
      await tx.run(
        'INSERT INTO signing_keys (kid, environment, algorithm, public_jwk, private_key_sealed, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        [kid, environment, SIGNING_ALGORITHM, JSON.stringify(jwk), sealed, clock.now()],
      );
    });
  }

  async function load(environment: Environment): Promise<CachedSet> {
    const version = await readCounter(db, 'signing_keys');
    const rows = await db.all<KeyRow>(
      'SELECT kid, environment, public_jwk, private_key_sealed, created_at, retired_at FROM signing_keys WHERE environment = ? ORDER BY created_at DESC, kid',
      [environment],
    );
    const now = clock.now();
    const published: CachedSet['published'] = new Map();
    let signer: Signer | null = null;
    for (const row of rows) {
      const unpublishAt = row.retired_at === null ? null : publishedUntil(Number(row.retired_at));
      if (unpublishAt !== null && unpublishAt <= now) continue;
      const jwk = JSON.parse(row.public_jwk) as JWK;
      published.set(row.kid, {
        key: (await importJWK(jwk, SIGNING_ALGORITHM)) as CryptoKey,
        jwk,
        unpublishAt,
      });
      if (row.retired_at === null && row.private_key_sealed !== null) {
        signer = {
          kid: row.kid,
          privateKey: await importPKCS8(box.open(row.private_key_sealed), SIGNING_ALGORITHM),
        };
      }
    }
    const set = { loadedAt: clock.now(), version, signer, published };
    cache.set(environment, set);
    return set;
  }

  /** Checked within CACHE_CHECK_MS by the injected clock (issue 14); a clock set back rechecks. */
  const recent = (set: CachedSet) => {
    const age = clock.now() - set.loadedAt;
    return age >= 0 && age < CACHE_CHECK_MS;
  };

  const stillPublished = (entry: { unpublishAt: number | null }) =>
    entry.unpublishAt === null || entry.unpublishAt > clock.now();

  async function current(environment: Environment, force = false): Promise<CachedSet> {
    const cached = cache.get(environment);
    if (cached && !force) {
      if (recent(cached)) return cached;
      if ((await readCounter(db, 'signing_keys')) === cached.version) {
        cached.loadedAt = clock.now();
        return cached;
      }
    }
    return load(environment);
  }

  return {
    async signer(environment) {
      let set = await current(environment);
      if (!set.signer) {
        try {
          await createKey(environment, false);
        } catch (error) {
          // The unique index allows one active key: another instance created it first; use theirs.
          if (!isUniqueViolation(error)) throw error;
        }
        set = await load(environment);
      }
      if (!set.signer) throw new Error(`no active signing key for ${environment}`);
      return set.signer;
    },
    async publicKey(environment, kid) {
      const set = await current(environment);
      const found = set.published.get(kid);
      if (found) return stillPublished(found) ? found.key : undefined;
      // A key rotated in by another instance moments ago: look once more, at most every CACHE_CHECK_MS.
      if (recent(set)) return undefined;
      const reloaded = (await load(environment)).published.get(kid);
      return reloaded && stillPublished(reloaded) ? reloaded.key : undefined;
    },
    async jwks(environment) {
      const set = await current(environment);
      return { keys: [...set.published.values()].filter(stillPublished).map((p) => p.jwk) };
    },
    async rotate(environment) {
      const before = await db.get<KeyRow>(
        'SELECT kid, environment, public_jwk, private_key_sealed, created_at, retired_at FROM signing_keys WHERE environment = ? AND retired_at IS NULL',
        [environment],
      );
      await createKey(environment, true);
      await load(environment);
      const rows = await this.list(environment);
      const active = rows.find((r) => r.retiredAt === null);
      if (!active) throw new Error('rotation left no active key');
      return { active, retired: before ? (rows.find((r) => r.kid === before.kid) ?? null) : null };
    },
    async list(environment) {
      const rows = await db.all<KeyRow>(
        'SELECT kid, environment, public_jwk, private_key_sealed, created_at, retired_at FROM signing_keys WHERE environment = ? ORDER BY created_at DESC, kid',
        [environment],
      );
      return rows.map(summary);
    },
  };
}
