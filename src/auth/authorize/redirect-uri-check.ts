import type { KeyRecord } from '../../keys/model.js';
import type { LoginFlow, Refusal } from '../login.js';
import type { AuthorizeQuery } from './authorize-query.js';

/**
 * Where to: `redirect_uri` once, one of the project's registered destinations, matched exactly as
 * `/connect`'s `destination` is (destination.ts). A refusal is still a page.
 */
export async function checkRedirectUri(
  query: AuthorizeQuery,
  key: KeyRecord,
  flow: Pick<LoginFlow, 'checkDestination'>,
): Promise<{ ok: true; url: URL; projectName: string } | Refusal> {
  const raw = query.repeated.includes('redirect_uri') ? null : query.single('redirect_uri');
  const checked = await flow.checkDestination(key, raw);
  if (!checked.ok) {
    return {
      ok: false,
      code: 'invalid_redirect_uri',
      message: checked.reason.replace('destination', 'redirect_uri'),
    };
  }
  return checked;
}
