import type { Clock } from '../platform/clock.js';
import { normaliseEmail } from '../platform/email.js';
import { newId } from '../platform/ids.js';
import {
  checkCredentials,
  hashPassword,
  MIN_PASSWORD_LENGTH,
  passwordProblem,
} from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { Developer } from './model.js';
import type { DeveloperStore } from './store.js';

export { normaliseEmail } from '../platform/email.js';

export interface DeveloperService {
  add(input: { email: string; name?: string; password?: string }): Promise<Developer>;
  findByEmail(email: string): Promise<Developer | undefined>;
  get(id: string): Promise<Developer | undefined>;
  /** The developer whose portal password this is, or null (same cost whether the email exists or not). */
  authenticate(email: string, password: string): Promise<Developer | null>;
  /** The account can no longer sign in to the portal; its projects and keys stay as they are. */
  disable(id: string): Promise<void>;
  /** A new portal password (issue 27: after a reset); the caller ends the sessions. */
  setPassword(id: string, password: string): Promise<void>;
  markVerified(id: string): Promise<void>;
}

export function createDeveloperService(deps: { store: DeveloperStore; clock: Clock }): DeveloperService {
  return {
    async add({ email, name, password }) {
      const normalised = normaliseEmail(email);
      if (await deps.store.findByEmail(normalised)) {
        throw new UsageError(`a developer with email ${normalised} already exists`, 'conflict');
      }
      if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) {
        throw new UsageError(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
      }
      const developer: Developer = {
        id: newId('dev'),
        email: normalised,
        name: name?.trim() || normalised.split('@')[0] || normalised,
        createdAt: deps.clock.now(),
        disabledAt: null,
        emailVerifiedAt: null,
      };
      await deps.store.insert(developer, password === undefined ? null : await hashPassword(password));
      return developer;
    },
    findByEmail: (email) => deps.store.findByEmail(normaliseEmail(email)),
    get: (id) => deps.store.get(id),
    async disable(id) {
      if (!(await deps.store.disable(id, deps.clock.now()))) {
        throw new UsageError(`no enabled developer ${id}`, 'not_found');
      }
    },
    async setPassword(id, password) {
      const problem = passwordProblem(password);
      if (problem) throw new UsageError(problem);
      if (!(await deps.store.setPassword(id, await hashPassword(password)))) {
        throw new UsageError(`no developer ${id}`, 'not_found');
      }
    },
    markVerified: (id) => deps.store.markVerified(id, deps.clock.now()),
    authenticate: (email, password) =>
      checkCredentials(email, password, async (normalised) => {
        const found = await deps.store.findCredentials(normalised);
        return found && { account: found.developer, passwordHash: found.passwordHash };
      }),
  };
}
