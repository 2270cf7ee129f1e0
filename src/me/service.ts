import { randomUUID } from 'node:crypto';
import { ProblemError } from '../http/errors.js';
import { describeParameters } from '../http/problem.js';
import type { OfferInput } from '../offers/offer-input.js';
import { offerIdFor } from '../offers/rows.js';
import type { Offer, SearchQuery } from '../offers/schemas.js';
import type { OfferService } from '../offers/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import { newId } from '../platform/ids.js';
import type { User } from '../users/model.js';
import type { SavedSearch } from './model.js';
import { MAX_FAVORITES, MAX_OWN_OFFERS, MAX_SAVED_SEARCHES, type OwnOfferInput } from './schemas.js';
import { createMeSessions, type MeSessions } from './sessions.js';
import type { MeStore } from './store.js';

/**
 * What an end user does through the end-user API, one method a handler (issue 14):
 * the limits, the ownership checks (someone else's offer or saved search is "not found",
 * exactly like one that does not exist) and the writes. Every method acts for `user` only.
 */
export interface MeService extends MeSessions {
  favorites(user: User, environment: Environment): Promise<Offer[]>;
  /** Idempotent; `limit_reached` past MAX_FAVORITES, `offer_not_found` for an unknown offer. */
  addFavorite(user: User, environment: Environment, offerId: string): Promise<void>;
  removeFavorite(user: User, offerId: string): Promise<void>;
  savedSearches(user: User): Promise<SavedSearch[]>;
  /** The query is validated exactly like a live search's. */
  saveSearch(
    user: User,
    environment: Environment,
    input: { name: string; query: Record<string, unknown>; alerts?: boolean },
    /** The project of the calling key: its webhook endpoints get the alerts. */
    projectId: string,
  ): Promise<SavedSearch>;
  removeSavedSearch(user: User, id: string): Promise<void>;
  ownOffers(user: User, environment: Environment): Promise<Offer[]>;
  /** Publishes an offer with the user as publisher and records it as theirs. */
  publish(user: User, environment: Environment, input: OwnOfferInput): Promise<Offer | undefined>;
  update(
    user: User,
    environment: Environment,
    offerId: string,
    patch: Partial<OwnOfferInput>,
  ): Promise<Offer | undefined>;
  /** The offer stays readable by id with status `withdrawn`. */
  withdraw(user: User, environment: Environment, offerId: string): Promise<void>;
}

export function createMeService(deps: {
  store: MeStore;
  offers: OfferService;
  clock: Clock;
  /** The token families: the user's sessions. */
  sessions: Parameters<typeof createMeSessions>[0]['families'];
}): MeService {
  const { store, offers, clock } = deps;
  const notFound = (environment: Environment, id: string) =>
    new ProblemError('offer_not_found', `No offer ${id} in the ${environment} environment.`);
  const offersById = async (environment: Environment, ids: string[]): Promise<Offer[]> =>
    (await Promise.all(ids.map((id) => offers.get(environment, id)))).filter(
      (o): o is Offer => o !== undefined,
    );
  const checkExpiry = (expiresAt: string | null | undefined) => {
    if (expiresAt && Date.parse(expiresAt) <= clock.now()) {
      const errors = [{ parameter: 'expiresAt', message: 'must be in the future' }];
      throw new ProblemError('invalid_parameter', describeParameters(errors), { errors });
    }
  };
  /** The user's own offer and its current state, or `offer_not_found`. */
  const ownOffer = async (user: User, environment: Environment, offerId: string) => {
    const own = await store.ownOffer(user.id, offerId);
    const current = own && (await offers.get(environment, offerId));
    if (!own || !current) throw notFound(environment, offerId);
    return { externalId: own.externalId, current };
  };

  return {
    ...createMeSessions({ families: deps.sessions, clock }),
    async favorites(user, environment) {
      return offersById(environment, await store.favoriteIds(user.id));
    },
    async addFavorite(user, environment, offerId) {
      if (!(await offers.get(environment, offerId))) throw notFound(environment, offerId);
      if (
        (await store.countFavorites(user.id)) >= MAX_FAVORITES &&
        !(await store.favoriteIds(user.id)).includes(offerId)
      ) {
        throw new ProblemError('limit_reached', `A user keeps at most ${MAX_FAVORITES} favorites.`);
      }
      await store.addFavorite(user.id, offerId, clock.now());
    },
    removeFavorite: (user, offerId) => store.removeFavorite(user.id, offerId),
    savedSearches: (user) => store.savedSearches(user.id),
    async saveSearch(user, environment, input, projectId) {
      // The same rules as a live search (price range order, relevance needs q, …), run on one row.
      const check = await offers.search(environment, { ...(input.query as SearchQuery), limit: 1 });
      if (!check.ok) {
        const errors = check.errors.map((e) => ({ ...e, parameter: `query.${e.parameter}` }));
        throw new ProblemError('invalid_parameter', describeParameters(errors), { errors });
      }
      if ((await store.savedSearches(user.id)).length >= MAX_SAVED_SEARCHES) {
        throw new ProblemError('limit_reached', `A user keeps at most ${MAX_SAVED_SEARCHES} saved searches.`);
      }
      const saved = {
        id: newId('svs'),
        name: input.name.trim(),
        query: input.query,
        alerts: input.alerts === true,
        createdAt: clock.now(),
      };
      await store.addSavedSearch(user.id, saved, { projectId, environment });
      return saved;
    },
    async removeSavedSearch(user, id) {
      if (!(await store.removeSavedSearch(user.id, id))) {
        throw new ProblemError('saved_search_not_found', `You have no saved search ${id}.`);
      }
    },
    async ownOffers(user, environment) {
      return offersById(
        environment,
        (await store.ownOffers(user.id)).map((o) => o.offerId),
      );
    },
    async publish(user, environment, input) {
      checkExpiry(input.expiresAt);
      if ((await store.ownOffers(user.id)).length >= MAX_OWN_OFFERS) {
        throw new ProblemError('limit_reached', `A user publishes at most ${MAX_OWN_OFFERS} offers.`);
      }
      const externalId = `user:${user.id}:${randomUUID()}`;
      const now = clock.now();
      const offerId = offerIdFor(environment, externalId);
      // The offer and the row that makes it the user's: one transaction, never one without the other.
      await offers.upsertOne(environment, toInput(user, externalId, input, 'active', now), (tx) =>
        store.addOwnOffer(tx, user.id, offerId, externalId, now),
      );
      return offers.get(environment, offerId);
    },
    async update(user, environment, offerId, patch) {
      const { externalId, current } = await ownOffer(user, environment, offerId);
      checkExpiry(patch.expiresAt);
      const merged: OwnOfferInput = {
        title: current.title,
        description: current.description,
        category: current.category,
        tags: current.tags,
        location: current.location,
        price: current.price,
        url: current.url,
        attributes: current.attributes,
        expiresAt: current.expiresAt,
        ...patch,
      };
      const stored = current.status === 'withdrawn' ? 'withdrawn' : 'active';
      await offers.upsertMany(environment, [
        toInput(user, externalId, merged, stored, Date.parse(current.publishedAt)),
      ]);
      return offers.get(environment, offerId);
    },
    async withdraw(user, environment, offerId) {
      const { externalId, current } = await ownOffer(user, environment, offerId);
      if (current.status === 'withdrawn') return;
      const { id: _id, publisher: _p, status: _s, publishedAt, updatedAt: _u, ...fields } = current;
      await offers.upsertMany(environment, [
        toInput(user, externalId, fields, 'withdrawn', Date.parse(publishedAt)),
      ]);
    },
  };
}

function toInput(
  user: User,
  externalId: string,
  body: OwnOfferInput,
  status: OfferInput['status'],
  publishedAt: number,
): OfferInput {
  return {
    externalId,
    title: body.title.trim(),
    description: body.description,
    category: body.category,
    tags: body.tags ?? [],
    location: { ...body.location, region: body.location.region ?? null },
    price: body.price,
    publisher: { id: user.id, name: user.name || 'Private seller' },
    url: body.url ?? null,
    attributes: body.attributes ?? {},
    status,
    publishedAt,
    expiresAt: body.expiresAt ? Date.parse(body.expiresAt) : null,
  };
}
