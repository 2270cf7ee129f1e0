import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import {
  dummyPasswordHash,
  hashPassword,
  MIN_PASSWORD_LENGTH,
  verifyPassword,
} from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { Developer, DeveloperStore } from './store.js';

// Deliberately loose: one @, something on each side, a dot in the domain. Real validation of an
// address is sending mail to it (the portal's job); this only catches obvious typos.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed) || trimmed.length > 254)
    throw new UsageError(`not a valid email address: ${email}`);
  return trimmed;
}

export interface DeveloperService {
  add(input: { email: string; name?: string; password?: string }): Promise<Developer>;
  findByEmail(email: string): Promise<Developer | undefined>;
  get(id: string): Promise<Developer | undefined>;
  /** The developer whose portal password this is, or null (same cost whether the email exists or not). */
  authenticate(email: string, password: string): Promise<Developer | null>;
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
      };
      await deps.store.insert(developer, password === undefined ? null : await hashPassword(password));
      return developer;
    },
    findByEmail: (email) => deps.store.findByEmail(normaliseEmail(email)),
    get: (id) => deps.store.get(id),
    async authenticate(email, password) {
      let normalised = '';
      try {
        normalised = normaliseEmail(email);
      } catch {
        // An impossible address still costs one hash check below.
      }
      const found = normalised ? await deps.store.findCredentials(normalised) : undefined;
      const matches = await verifyPassword(
        found?.passwordHash ?? (await dummyPasswordHash()),
        password,
      ).catch(() => false);
      return found?.passwordHash && matches ? found.developer : null;
    },
  };
}
