import type { KeyService } from '../keys/service.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { RecordEvent } from '../platform/events.js';
import { newId } from '../platform/ids.js';
import type { SecretBox } from '../platform/secret-box.js';
import { UsageError } from '../platform/usage-error.js';
import type { ApplicationState, KeyApplication } from './model.js';
import type { ApplicationStore } from './store.js';

export const MAX_REASON_LENGTH = 1000;

export interface ApplicationService {
  /**
   * A project applies for a key of one environment. Testing applications are approved at once
   * when `autoApproveTesting` is on; the refresh permission is only ever granted by
   * an operator, so asking for it leaves it to them.
   */
  apply(input: {
    projectId: string;
    environment: Environment;
    wantsRefresh: boolean;
    refreshReason?: string;
  }): Promise<KeyApplication>;
  get(id: string): Promise<KeyApplication | undefined>;
  list(filter?: { state?: ApplicationState; projectIds?: readonly string[] }): Promise<KeyApplication[]>;
  /** Issues the key (kept sealed until the developer reveals it), optionally with the refresh permission. */
  approve(id: string, by: string, options?: { grantRefresh?: boolean }): Promise<KeyApplication>;
  reject(id: string, by: string, reason: string): Promise<KeyApplication>;
  /** The key in clear, exactly once; null when it was already revealed (or never issued). */
  reveal(id: string): Promise<string | null>;
}

export function createApplicationService(deps: {
  store: ApplicationStore;
  keys: KeyService;
  box: SecretBox;
  clock: Clock;
  autoApproveTesting: boolean;
  /** Issue 24: `application.approved` / `application.rejected`, in the decision's transaction. */
  recordEvent?: RecordEvent;
}): ApplicationService {
  const event =
    (application: KeyApplication, type: 'application.approved' | 'application.rejected', data: object) =>
    (tx: Parameters<RecordEvent>[0]) =>
      deps.recordEvent?.(tx, {
        projectId: application.projectId,
        environment: application.environment,
        type,
        data: { applicationId: application.id, environment: application.environment, ...data },
      }) ?? Promise.resolve();
  async function pending(id: string): Promise<KeyApplication> {
    const found = await deps.store.get(id);
    if (!found) throw new UsageError(`no application with id ${id}`, 'not_found');
    if (found.state !== 'pending')
      throw new UsageError(`application ${id} is already ${found.state}`, 'conflict');
    return found;
  }
  async function approve(id: string, by: string, options: { grantRefresh?: boolean } = {}) {
    const application = await pending(id);
    const issued = await deps.keys.issue({
      projectId: application.projectId,
      environment: application.environment,
    });
    const decided = await deps.store.decide(
      id,
      {
        state: 'approved',
        reason: null,
        by,
        at: deps.clock.now(),
        keyId: issued.record.id,
        keySealed: deps.box.seal(issued.key),
      },
      event(application, 'application.approved', { keyId: issued.record.id, hint: issued.record.hint }),
    );
    if (!decided) {
      // Someone decided first (two operators at once): the key just made must not survive.
      await deps.keys.revoke(issued.record.id);
      throw new UsageError(`application ${id} was decided meanwhile`, 'conflict');
    }
    if (options.grantRefresh) await deps.keys.grantRefresh(issued.record.id);
    return (await deps.store.get(id)) as KeyApplication;
  }
  return {
    async apply({ projectId, environment, wantsRefresh, refreshReason = '' }) {
      const reason = refreshReason.trim();
      if (reason.length > MAX_REASON_LENGTH)
        throw new UsageError(`a reason has at most ${MAX_REASON_LENGTH} characters`);
      const application: KeyApplication = {
        id: newId('app'),
        projectId,
        environment,
        wantsRefresh,
        refreshReason: wantsRefresh ? reason : '',
        state: 'pending',
        decisionReason: null,
        decidedBy: null,
        decidedAt: null,
        keyId: null,
        keyWaiting: false,
        revealedAt: null,
        createdAt: deps.clock.now(),
      };
      await deps.store.insert(application);
      if (environment === 'testing' && deps.autoApproveTesting) return approve(application.id, 'system');
      return application;
    },
    get: (id) => deps.store.get(id),
    list: (filter = {}) => deps.store.list(filter),
    approve,
    async reject(id, by, reason) {
      const text = reason.trim();
      if (text.length === 0 || text.length > MAX_REASON_LENGTH)
        throw new UsageError(`a rejection needs a reason of 1 to ${MAX_REASON_LENGTH} characters`);
      const application = await pending(id);
      const decided = await deps.store.decide(
        id,
        { state: 'rejected', reason: text, by, at: deps.clock.now(), keyId: null, keySealed: null },
        event(application, 'application.rejected', { reason: text }),
      );
      if (!decided) throw new UsageError(`application ${id} was decided meanwhile`, 'conflict');
      return (await deps.store.get(id)) as KeyApplication;
    },
    async reveal(id) {
      const sealed = await deps.store.takeSealedKey(id, deps.clock.now());
      return sealed === null ? null : deps.box.open(sealed);
    },
  };
}
