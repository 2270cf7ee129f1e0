import { VitrineError } from './errors.js';
import { join, type RequestSpec, send, type TransportSettings } from './transport.js';
import type {
  Favorites,
  Me,
  Offer,
  OwnOfferInput,
  OwnOfferPatch,
  OwnOffers,
  RefreshResponse,
  SavedSearch,
  SavedSearches,
  SavedSearchInput,
  UserSessions,
} from './types.js';

/** An end user's tokens, as `onTokens` receives them after a refresh. */
export interface UserTokens {
  accessToken: string;
  /** The refresh token to keep: a new one when the server rotates them, else the same one. */
  refreshToken: string | null;
  /** When the access token expires (RFC 3339), when known. */
  expiresAt: string | null;
}

/** Options of {@link Vitrine.asUser}. */
export interface AsUserOptions {
  /** `{auth_url}` of the key's environment, e.g. `https://vitrine.example/auth`. */
  authUrl: string;
  accessToken: string;
  /** Without it, an expired access token is thrown as `token_expired`. */
  refreshToken?: string | null;
  /** Called with the new tokens after every refresh, before the waiting calls are retried: store them. */
  onTokens?: (tokens: UserTokens) => void | Promise<void>;
}

export interface CallOptions {
  /** Aborts the call (and any wait before a retry); it then rejects with code `aborted`. */
  signal?: AbortSignal;
}

/**
 * The end-user API: every call carries the API key and the user's access token. On
 * `401 token_expired` it refreshes once — a single `{auth_url}/refresh` call however many calls
 * are waiting — hands the tokens to `onTokens`, and retries each waiting call once.
 *
 * @example
 * ```ts
 * const user = vitrine.asUser({
 *   authUrl: 'https://vitrine.example/auth',
 *   accessToken: session.jwt,
 *   refreshToken: session.refresh,
 *   onTokens: (tokens) => saveSession(tokens),
 * });
 * const me = await user.me.get();
 * await user.favorites.add('off_3kTMd9RAnq0LZpOXbe2w');
 * ```
 */
export class VitrineUser {
  #accessToken: string;
  #refreshToken: string | null;
  #expiresAt: string | null = null;
  #refreshing: Promise<void> | null = null;
  readonly #settings: TransportSettings;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #options: AsUserOptions;

  /** `GET {base_url}/me`, and the user's sessions. */
  readonly me = {
    /** The signed-in user. @example `const { email } = await user.me.get();` */
    get: (options: CallOptions = {}) => this.#call<Me>({ method: 'GET', path: 'me', ...options }),
    /** The user's sessions: one per sign-in (`/connect` or `/authorize`), until it expires or is ended. */
    sessions: {
      /**
       * The active sessions of this environment, newest first; `current` marks this client's.
       * @example `const { data } = await user.me.sessions.list();`
       */
      list: (options: CallOptions = {}) =>
        this.#call<UserSessions>({ method: 'GET', path: 'me/sessions', ...options }),
      /**
       * Ends a session: its refresh token stops working at once, its access tokens within a
       * second. Ending the current one signs this client out. Throws `session_not_found` for
       * an id that is not one of the user's active sessions.
       * @example `await user.me.sessions.end(session.id);`
       */
      end: (id: string, options: CallOptions = {}) =>
        this.#call<void>({ method: 'DELETE', path: `me/sessions/${encodeURIComponent(id)}`, ...options }),
    },
  };

  /** The user's favorite offers. */
  readonly favorites = {
    /** @example `const { data } = await user.favorites.list();` */
    list: (options: CallOptions = {}) =>
      this.#call<Favorites>({ method: 'GET', path: 'me/favorites', ...options }),
    /** Adds an offer (idempotent). @example `await user.favorites.add(offer.id);` */
    add: (offerId: string, options: CallOptions = {}) =>
      this.#call<unknown>({ method: 'PUT', path: `me/favorites/${encodeURIComponent(offerId)}`, ...options }),
    /** @example `await user.favorites.remove(offer.id);` */
    remove: (offerId: string, options: CallOptions = {}) =>
      this.#call<void>({ method: 'DELETE', path: `me/favorites/${encodeURIComponent(offerId)}`, ...options }),
  };

  /** The user's saved searches. */
  readonly savedSearches = {
    /** @example `const { data } = await user.savedSearches.list();` */
    list: (options: CallOptions = {}) =>
      this.#call<SavedSearches>({ method: 'GET', path: 'me/saved-searches', ...options }),
    /** @example `await user.savedSearches.create({ name: 'Bikes', query: { q: 'bike' } });` */
    create: (input: SavedSearchInput, options: CallOptions = {}) =>
      this.#call<SavedSearch>({ method: 'POST', path: 'me/saved-searches', body: input, ...options }),
    /** @example `await user.savedSearches.delete(saved.id);` */
    delete: (id: string, options: CallOptions = {}) =>
      this.#call<void>({ method: 'DELETE', path: `me/saved-searches/${encodeURIComponent(id)}`, ...options }),
  };

  /** The offers the user published. */
  readonly offers = {
    /** @example `const { data } = await user.offers.list();` */
    list: (options: CallOptions = {}) =>
      this.#call<OwnOffers>({ method: 'GET', path: 'me/offers', ...options }),
    /** @example `const offer = await user.offers.create({ title: 'Road bike', … });` */
    create: (input: OwnOfferInput, options: CallOptions = {}) =>
      this.#call<Offer>({ method: 'POST', path: 'me/offers', body: input, ...options }),
    /** @example `await user.offers.update(offer.id, { price: { amount: '90.00', currency: 'EUR' } });` */
    update: (id: string, patch: OwnOfferPatch, options: CallOptions = {}) =>
      this.#call<Offer>({
        method: 'PATCH',
        path: `me/offers/${encodeURIComponent(id)}`,
        body: patch,
        ...options,
      }),
    /** @example `await user.offers.delete(offer.id);` */
    delete: (id: string, options: CallOptions = {}) =>
      this.#call<void>({ method: 'DELETE', path: `me/offers/${encodeURIComponent(id)}`, ...options }),
  };

  /** @internal Use {@link Vitrine.asUser}. */
  constructor(settings: TransportSettings, baseUrl: string, apiKey: string, options: AsUserOptions) {
    this.#settings = settings;
    this.#baseUrl = baseUrl;
    this.#apiKey = apiKey;
    this.#options = options;
    this.#accessToken = options.accessToken;
    this.#refreshToken = options.refreshToken ?? null;
  }

  /** The tokens in use now (after any refresh). @example `persist(user.tokens);` */
  get tokens(): UserTokens {
    return { accessToken: this.#accessToken, refreshToken: this.#refreshToken, expiresAt: this.#expiresAt };
  }

  async #call<T>(call: {
    method: RequestSpec['method'];
    path: string;
    body?: unknown;
    signal?: AbortSignal;
  }) {
    const attempt = (token: string) =>
      send<T>(this.#settings, {
        method: call.method,
        url: join(this.#baseUrl, call.path),
        headers: { 'x-api-key': this.#apiKey, authorization: `Bearer ${token}` },
        body: call.body,
        signal: call.signal,
      });
    const used = this.#accessToken;
    try {
      return await attempt(used);
    } catch (error) {
      if (!(error instanceof VitrineError) || error.code !== 'token_expired') throw error;
      await this.#renew(used, error);
      return attempt(this.#accessToken);
    }
  }

  /**
   * Single flight: the first call to see its token expire refreshes; calls that fail meanwhile
   * wait for that refresh; a call whose token was already replaced just retries.
   */
  #renew(used: string, expired: VitrineError): Promise<void> {
    if (this.#accessToken !== used) return Promise.resolve();
    if (this.#refreshToken === null) return Promise.reject(expired);
    this.#refreshing ??= this.#refresh(this.#refreshToken).finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #refresh(refreshToken: string): Promise<void> {
    const answer = await send<RefreshResponse>(this.#settings, {
      method: 'POST',
      url: join(this.#options.authUrl, 'refresh'),
      headers: { 'x-api-key': this.#apiKey },
      body: new URLSearchParams({ refresh: refreshToken }),
    });
    this.#accessToken = answer.access_token;
    this.#refreshToken = answer.refresh_token ?? refreshToken;
    this.#expiresAt = answer.expires_at;
    await this.#options.onTokens?.(this.tokens);
  }
}
