import type { Database, Queryable } from '../db/database.js';
import type { SavedSearch } from './model.js';

export interface MeStore {
  favoriteIds(userId: string): Promise<string[]>;
  countFavorites(userId: string): Promise<number>;
  /** False when it was already a favorite. */
  addFavorite(userId: string, offerId: string, at: number): Promise<boolean>;
  removeFavorite(userId: string, offerId: string): Promise<void>;
  savedSearches(userId: string): Promise<SavedSearch[]>;
  /** With its project and environment (whose webhooks its alerts go to) and the offers change counter now. */
  addSavedSearch(
    userId: string,
    search: SavedSearch,
    scope: { projectId: string; environment: string },
  ): Promise<void>;
  /** False when the user has no saved search with this id. */
  removeSavedSearch(userId: string, id: string): Promise<boolean>;
  ownOffers(userId: string): Promise<{ offerId: string; externalId: string }[]>;
  ownOffer(userId: string, offerId: string): Promise<{ externalId: string } | undefined>;
  /** Inside the transaction that writes the offer (OfferService.upsertOne). */
  addOwnOffer(tx: Queryable, userId: string, offerId: string, externalId: string, at: number): Promise<void>;
}

export function createMeStore(db: Database): MeStore {
  return {
    async favoriteIds(userId) {
      const rows = await db.all<{ offer_id: string }>(
        'SELECT offer_id FROM favorites WHERE user_id = ? ORDER BY created_at DESC, offer_id',
        [userId],
      );
      return rows.map((r) => r.offer_id);
    },
    async countFavorites(userId) {
      const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM favorites WHERE user_id = ?', [
        userId,
      ]);
      return Number(row?.n ?? 0);
    },
    async addFavorite(userId, offerId, at) {
      const changed = await db.run(
        'INSERT INTO favorites (user_id, offer_id, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id, offer_id) DO NOTHING',
        [userId, offerId, at],
      );
      return changed > 0;
    },
    async removeFavorite(userId, offerId) {
      await db.run('DELETE FROM favorites WHERE user_id = ? AND offer_id = ?', [userId, offerId]);
    },
    async savedSearches(userId) {
      const rows = await db.all<{
        id: string;
        name: string;
        query: string;
        alerts: number;
        created_at: number;
      }>(
        'SELECT id, name, query, alerts, created_at FROM saved_searches WHERE user_id = ? ORDER BY created_at DESC, id',
        [userId],
      );
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        query: JSON.parse(r.query) as Record<string, unknown>,
        alerts: Number(r.alerts) === 1,
        createdAt: Number(r.created_at),
      }));
    },
    async addSavedSearch(userId, search, scope) {
      // Offer writes committed so far never alert it (the percolator compares change sequences).
      await db.run(
        `INSERT INTO saved_searches (id, user_id, name, query, created_at, alerts, project_id, environment, since_seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT value FROM change_counters WHERE name = ?))`,
        [
          search.id,
          userId,
          search.name,
          JSON.stringify(search.query),
          search.createdAt,
          search.alerts ? 1 : 0,
          scope.projectId,
          scope.environment,
          `offers:${scope.environment}`,
        ],
      );
    },
    async removeSavedSearch(userId, id) {
      return (await db.run('DELETE FROM saved_searches WHERE id = ? AND user_id = ?', [id, userId])) > 0;
    },
    async ownOffers(userId) {
      const rows = await db.all<{ offer_id: string; external_id: string }>(
        'SELECT offer_id, external_id FROM user_offers WHERE user_id = ? ORDER BY created_at DESC, offer_id',
        [userId],
      );
      return rows.map((r) => ({ offerId: r.offer_id, externalId: r.external_id }));
    },
    async ownOffer(userId, offerId) {
      const row = await db.get<{ external_id: string }>(
        'SELECT external_id FROM user_offers WHERE user_id = ? AND offer_id = ?',
        [userId, offerId],
      );
      return row && { externalId: row.external_id };
    },
    async addOwnOffer(tx, userId, offerId, externalId, at) {
      await tx.run(
        'INSERT INTO user_offers (offer_id, user_id, external_id, created_at) VALUES (?, ?, ?, ?)',
        [offerId, userId, externalId, at],
      );
    },
  };
}
