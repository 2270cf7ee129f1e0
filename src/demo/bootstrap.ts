import type { Deps } from '../deps.js';
import { generateOffers } from '../offers/seed.js';

export const DEMO_EMAIL = 'demo@vitrine.local';
export const DEMO_OFFERS = 2_000;
export const DEMO_REDIRECT_URI = 'http://localhost:5173/callback';

export interface DemoState {
  projectId: string;
  /** The testing key, only on the run that issued it (it is never stored in clear). */
  newKey: string | null;
  offersSeeded: number;
}

/**
 * First-run demo for `npm start`: a developer, a project and a testing key, and demo offers in
 * the testing environment. Idempotent: each part is created only if missing.
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
  const newKey =
    keys.length === 0 ? (await deps.keys.issue({ projectId: project.id, environment: 'testing' })).key : null;
  let offersSeeded = 0;
  if ((await deps.offers.count('testing')) === 0) {
    const result = await deps.offers.upsertMany('testing', [...generateOffers({ count: DEMO_OFFERS })]);
    offersSeeded = result.inserted;
  }
  return { projectId: project.id, newKey, offersSeeded };
}
