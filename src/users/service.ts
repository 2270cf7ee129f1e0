import type { Clock } from '../platform/clock.js';
import { normaliseEmail } from '../platform/email.js';
import type { Environment } from '../platform/environment.js';
import { newId } from '../platform/ids.js';
import { checkCredentials, hashPassword, passwordProblem } from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { User } from './model.js';
import type { UserStore } from './store.js';

/**
 * End users: one account per email per environment. Disabling a user or changing
 * a password ends their sessions: refresh tokens are revoked at once, access tokens are refused
 * by the bearer check (it reads the user on every request).
 */
export interface UserService {
  add(input: { environment: Environment; email: string; password: string; name?: string }): Promise<User>;
  list(environment: Environment): Promise<User[]>;
  get(id: string): Promise<User | undefined>;
  /** An active user by email (issue 27: password reset); undefined for an impossible address. */
  findByEmail(environment: Environment, email: string): Promise<User | undefined>;
  markVerified(id: string): Promise<void>;
  /** The user for these credentials, or null; takes the same time whether the email exists or not. */
  authenticate(environment: Environment, email: string, password: string): Promise<User | null>;
  disable(id: string): Promise<{ user: User; revokedRefreshTokens: number }>;
  setPassword(id: string, password: string): Promise<{ user: User; revokedRefreshTokens: number }>;
}

export function createUserService(deps: {
  store: UserStore;
  /** The auth server's refresh tokens (auth/refresh-token-store.ts), as far as users end them. */
  refreshTokens: {
    revokeForUser(userId: string, reason: 'user_disabled' | 'password_changed', at: number): Promise<number>;
  };
  clock: Clock;
}): UserService {
  const { store, clock } = deps;
  async function existing(id: string): Promise<User> {
    const user = await store.get(id);
    if (!user) throw new UsageError(`no user with id ${id}`, 'not_found');
    return user;
  }
  return {
    async add({ environment, email, password, name }) {
      const normalised = normaliseEmail(email);
      const problem = passwordProblem(password);
      if (problem) throw new UsageError(problem);
      const now = clock.now();
      const user: User = {
        id: newId('usr'),
        environment,
        email: normalised,
        name: name?.trim().slice(0, 100) ?? '',
        state: 'active',
        createdAt: now,
        passwordChangedAt: now,
        disabledAt: null,
        emailVerifiedAt: null,
      };
      if (!(await store.insert(user, await hashPassword(password)))) {
        throw new UsageError(`a user with email ${normalised} already exists in ${environment}`, 'conflict');
      }
      return user;
    },
    list: (environment) => store.list(environment),
    get: (id) => store.get(id),
    async findByEmail(environment, email) {
      let normalised: string;
      try {
        normalised = normaliseEmail(email);
      } catch {
        return undefined;
      }
      const found = await store.findByEmail(environment, normalised);
      return found?.user.state === 'active' ? found.user : undefined;
    },
    markVerified: (id) => store.markVerified(id, clock.now()),
    async authenticate(environment, email, password) {
      const user = await checkCredentials(email, password, async (normalised) => {
        const found = await store.findByEmail(environment, normalised);
        return found && { account: found.user, passwordHash: found.passwordHash };
      });
      return user?.state === 'active' ? user : null;
    },
    async disable(id) {
      await existing(id);
      const now = clock.now();
      await store.disable(id, now);
      const revokedRefreshTokens = await deps.refreshTokens.revokeForUser(id, 'user_disabled', now);
      return { user: await existing(id), revokedRefreshTokens };
    },
    async setPassword(id, password) {
      await existing(id);
      const problem = passwordProblem(password);
      if (problem) throw new UsageError(problem);
      const now = clock.now();
      await store.setPassword(id, await hashPassword(password), now);
      const revokedRefreshTokens = await deps.refreshTokens.revokeForUser(id, 'password_changed', now);
      return { user: await existing(id), revokedRefreshTokens };
    },
  };
}
