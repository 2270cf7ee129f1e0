import type { AuditLog } from '../audit/service.js';
import type { Database } from '../db/database.js';
import type { ChangeBus } from '../platform/change-bus.js';
import type { Clock } from '../platform/clock.js';
import { isEnvironment } from '../platform/environment.js';
import { createSynonymService, SYNONYM_CHANGES_TOPIC, type SynonymService } from './service.js';
import { createSynonymStore } from './store.js';

export type { SynonymService };

/**
 * The process's synonyms (issue 23): a change made here is announced on the change bus (ADR
 * 0021), and a message from another process makes this one read the environment's rules again.
 */
export function createBusSynonyms(deps: {
  db: Database;
  audit: AuditLog;
  clock: Clock;
  changeBus: ChangeBus;
}): SynonymService {
  const synonyms = createSynonymService({
    store: createSynonymStore(deps.db),
    audit: deps.audit,
    clock: deps.clock,
    onChanged: (environment) => deps.changeBus.publish(SYNONYM_CHANGES_TOPIC, environment),
  });
  deps.changeBus.subscribe(SYNONYM_CHANGES_TOPIC, (environment) => {
    // A failed read is retried by the next poll.
    if (isEnvironment(environment)) void synonyms.refresh(environment).catch(() => undefined);
  });
  return synonyms;
}
