import type { Clock } from '../platform/clock.js';
import { normaliseEmail } from '../platform/email.js';
import { newId } from '../platform/ids.js';
import { checkCredentials, hashPassword, passwordProblem } from '../platform/passwords.js';
import { UsageError } from '../platform/usage-error.js';
import type { Operator } from './model.js';
import type { OperatorStore } from './store.js';

export interface OperatorService {
  add(input: { email: string; password: string; name?: string }): Promise<Operator>;
  get(id: string): Promise<Operator | undefined>;
  /** An enabled operator by email (issue 27: password reset). */
  findByEmail(email: string): Promise<Operator | undefined>;
  list(): Promise<Operator[]>;
  /** The operator with these credentials, or null (same cost whether the email exists or not). */
  authenticate(email: string, password: string): Promise<Operator | null>;
  setPassword(id: string, password: string): Promise<void>;
  /** Refused for the last enabled operator: someone must be able to run the console. */
  disable(id: string): Promise<void>;
}

export function createOperatorService(deps: { store: OperatorStore; clock: Clock }): OperatorService {
  return {
    async add({ email, password, name }) {
      const normalised = normaliseEmail(email);
      const problem = passwordProblem(password);
      if (problem) throw new UsageError(problem);
      if (await deps.store.findCredentials(normalised)) {
        throw new UsageError(`an operator with email ${normalised} already exists`, 'conflict');
      }
      const operator: Operator = {
        id: newId('opr'),
        email: normalised,
        name: name?.trim() || normalised.split('@')[0] || normalised,
        createdAt: deps.clock.now(),
        disabledAt: null,
      };
      await deps.store.insert(operator, await hashPassword(password));
      return operator;
    },
    get: (id) => deps.store.get(id),
    async findByEmail(email) {
      return (await deps.store.findCredentials(normaliseEmail(email)))?.operator;
    },
    list: () => deps.store.list(),
    async setPassword(id, password) {
      const problem = passwordProblem(password);
      if (problem) throw new UsageError(problem);
      if (!(await deps.store.setPassword(id, await hashPassword(password)))) {
        throw new UsageError(`no operator ${id}`, 'not_found');
      }
    },
    async disable(id) {
      const outcome = await deps.store.disableUnlessLast(id, deps.clock.now());
      if (outcome === 'not_enabled') throw new UsageError(`no enabled operator ${id}`, 'not_found');
      if (outcome === 'last') {
        throw new UsageError(`${id} is the last enabled operator; add another one first`, 'conflict');
      }
    },
    authenticate: (email, password) =>
      checkCredentials(email, password, async (normalised) => {
        const found = await deps.store.findCredentials(normalised);
        return found && { account: found.operator, passwordHash: found.passwordHash };
      }),
  };
}
