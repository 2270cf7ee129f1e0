import type { AuditLog } from '../audit/service.js';
import type { ChangeBus } from '../platform/change-bus.js';
import type { Clock } from '../platform/clock.js';
import { isEnvironment } from '../platform/environment.js';
import { createSynonymService, SYNONYM_CHANGES_TOPIC, type SynonymService } from './service.js';
import type { SynonymStore } from './store.js';

export { createSynonymStore } from './store.js';

/** What the composition root holds of synonyms (issue 23: search synonyms per environment). */
export interface WithSynonyms {
  synonyms: SynonymService;
}

/**
 * The process's synonyms (issue 23): a change made here is announced on the change bus (ADR
 * 0021), and a message from another process makes this one read the environment's rules again.
 */
export function createBusSynonyms(deps: {
  store: SynonymStore;
  audit: AuditLog;
  clock: Clock;
  changeBus: ChangeBus;
}): SynonymService {
  const synonyms = createSynonymService({
    store: deps.store,
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
