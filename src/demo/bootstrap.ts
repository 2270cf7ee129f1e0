import type { Deps } from '../deps.js';
import { generateOffers } from '../offers/seed.js';
import { randomBase62 } from '../platform/ids.js';

export const DEMO_EMAIL = 'demo@vitrine.local';
export const DEMO_OFFERS = 2_000;
export const DEMO_REDIRECT_URI = 'http://localhost:5173/callback';
export const DEMO_USER_EMAIL = 'enduser@vitrine.local';
export const DEMO_OPERATOR_EMAIL = 'operator@vitrine.local';

export interface DemoState {
  projectId: string;
  /** Id of the demo's testing key (`key_…`): the OAuth `client_id` of the PKCE example. */
  keyId: string | null;
  /** The testing key, only on the run that issued it (it is never stored in clear). */
  newKey: string | null;
  offersSeeded: number;
  /** The demo end user's password, only on the run that created the user. */
  newUserPassword: string | null;
  /** The first operator's password (console sign-in), only on the run that created it. */
  newOperatorPassword: string | null;
}

/**
 * First-run demo for `npm start`: a developer, a project and a testing key (with the refresh
 * permission), an end user, and demo offers in the testing environment. Idempotent: each part is
 * created only if missing; secrets are printed once, on the run that made them.
 */
export async function ensureDemo(deps: Deps): Promise<DemoState> {
  const developer =
    (await deps.developers.findByEmail(DEMO_EMAIL)) ??
    (await deps.developers.add({ email: DEMO_EMAIL, name: 'Demo developer' }));
  const project =
    (await deps.projects.list({ ownerEmail: developer.email }))[0] ??
    (await deps.projects.add({
      name: 'Vitrine demo',
      ownerEmail: developer.email,
      description: 'Created by npm start so the API can be tried at once.',
      redirectUris: [DEMO_REDIRECT_URI],
    }));
  const keys = await deps.keys.list({ projectId: project.id, environment: 'testing' });
  let newKey: string | null = null;
  let keyId = keys[0]?.id ?? null;
  if (keys.length === 0) {
    const issued = await deps.keys.issue({ projectId: project.id, environment: 'testing' });
    keyId = issued.record.id;
    // The demo shows the whole token flow, refresh included: the operator's grant, done for you.
    await deps.keys.grantRefresh(issued.record.id);
    newKey = issued.key;
  }
  let newUserPassword: string | null = null;
  if (!(await deps.users.list('testing')).some((u) => u.email === DEMO_USER_EMAIL)) {
    newUserPassword = randomBase62(16);
    await deps.users.add({
      environment: 'testing',
      email: DEMO_USER_EMAIL,
      password: newUserPassword,
      name: 'Demo end user',
    });
  }
  let offersSeeded = 0;
  if ((await deps.offers.count('testing')) === 0) {
    const result = await deps.offers.upsertMany('testing', [...generateOffers({ count: DEMO_OFFERS })]);
    offersSeeded = result.inserted;
  }
  // Issue 5: the console needs an operator; the first start makes one (only when there is none).
  let newOperatorPassword: string | null = null;
  if ((await deps.operators.list()).length === 0) {
    newOperatorPassword = randomBase62(20);
    await deps.operatorActions.addOperator(
      { kind: 'system', id: null, email: null, ip: null },
      { email: DEMO_OPERATOR_EMAIL, password: newOperatorPassword, name: 'Demo operator' },
    );
  }
  return { projectId: project.id, keyId, newKey, offersSeeded, newUserPassword, newOperatorPassword };
}
