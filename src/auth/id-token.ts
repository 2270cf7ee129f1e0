import { SignJWT } from 'jose';
import type { KeyRecord } from '../keys/model.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { User } from '../users/model.js';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.js';

export interface IdTokenDeps {
  clock: Clock;
  signingKeys: SigningKeys;
  authUrls: Record<Environment, string>;
}

/**
 * The OpenID Connect ID token (OIDC Core §2) of a code exchange, signed by `jose` with the
 * environment's token-signing key; `typ: JWT`, so the bearer guard (which wants `at+jwt`) refuses it.
 */
export async function signIdToken(
  deps: IdTokenDeps,
  user: User,
  key: KeyRecord,
  claims: { nonce: string | null; authTime: number; expiresAt: number },
): Promise<string> {
  const signer = await deps.signingKeys.signer(user.environment);
  const iat = Math.floor(deps.clock.now() / 1000);
  return new SignJWT({
    auth_time: Math.floor(claims.authTime / 1000),
    ...(claims.nonce === null ? {} : { nonce: claims.nonce }),
  })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: signer.kid, typ: 'JWT' })
    .setIssuer(deps.authUrls[user.environment])
    .setSubject(user.id)
    .setAudience(key.id)
    .setIssuedAt(iat)
    .setExpirationTime(Math.floor(claims.expiresAt / 1000))
    .sign(signer.privateKey);
}
