import type { KeyRecord } from '../keys/model.js';
import { isPublishable } from '../keys/scopes.js';

/**
 * Which keys may be OAuth clients: only secret keys. A publishable key
 * (`vk_pub_…`) lives in browsers, in the open, and can only search: `/authorize` shows its
 * error page and `/token` answers `invalid_client`, as `/connect` refuses it with `api_key_scope`.
 */
export function oauthClientRefusal(key: Pick<KeyRecord, 'kind'>): string | null {
  return isPublishable(key)
    ? 'A publishable key can only search; an OAuth client authenticates with a secret key.'
    : null;
}
