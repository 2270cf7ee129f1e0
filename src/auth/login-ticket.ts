import { createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';

/**
 * The login form's state between `GET /connect` and its POST: which key asked, where to go back
 * and the `state` to return. It travels in the form as a short-lived HS256 token (jose) signed
 * with a key derived from the master secret, so the API key itself never appears in the page.
 *
 * CSRF: the ticket carries the hash of a random nonce that `GET /connect` sets as a SameSite=Strict,
 * HttpOnly cookie. A POST is accepted only with a ticket and the cookie whose hash it names; a
 * forged cross-site form can supply neither.
 */
export const TICKET_TTL_SECONDS = 10 * 60;
const TICKET_TYPE = 'vitrine-login+jwt';

/** The longest `state` either door carries back to the client. */
export const MAX_STATE_LENGTH = 512;

export interface LoginTicket {
  keyId: string;
  environment: Environment;
  /** `/connect`'s destination, or the OAuth `redirect_uri`. */
  destination: string;
  state: string | null;
  /** Set when the login came through the OAuth door (`/authorize`); null for `/connect`. */
  oauth: OAuthRequest | null;
}

/** What `/authorize` was asked, carried by the ticket to the code the login ends with. */
export interface OAuthRequest {
  /** PKCE S256 challenge (RFC 7636). */
  challenge: string;
  nonce: string | null;
  /** The scope granted, space-separated (possibly empty). */
  scope: string;
}

export interface TicketIssuer {
  issue(ticket: LoginTicket): Promise<{ ticket: string; nonce: string }>;
  /** The ticket's content when it is authentic, unexpired and bound to this nonce. */
  verify(
    raw: string,
    nonce: string | undefined,
  ): Promise<LoginTicket | { error: 'expired' | 'invalid' | 'csrf' }>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export function createTicketIssuer(masterSecret: Buffer, clock: Clock, audience: string): TicketIssuer {
  const key = new Uint8Array(hkdfSync('sha256', masterSecret, Buffer.alloc(0), 'vitrine:login-ticket', 32));
  return {
    async issue(ticket) {
      const nonce = randomBytes(32).toString('base64url');
      const now = Math.floor(clock.now() / 1000);
      const token = await new SignJWT({
        kid: ticket.keyId,
        env: ticket.environment,
        dst: ticket.destination,
        st: ticket.state,
        ...(ticket.oauth ? { oa: ticket.oauth } : {}),
        n: sha256(nonce),
      })
        .setProtectedHeader({ alg: 'HS256', typ: TICKET_TYPE })
        .setAudience(audience)
        .setIssuedAt(now)
        .setExpirationTime(now + TICKET_TTL_SECONDS)
        .sign(key);
      return { ticket: token, nonce };
    },
    async verify(raw, nonce) {
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(raw, key, {
          algorithms: ['HS256'],
          typ: TICKET_TYPE,
          audience,
          currentDate: new Date(clock.now()),
        }));
      } catch (error) {
        return { error: (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
      }
      const expected = Buffer.from(String(payload.n));
      const given = Buffer.from(nonce ? sha256(nonce) : '');
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { error: 'csrf' };
      const env = payload.env;
      if (
        (env !== 'production' && env !== 'testing') ||
        typeof payload.kid !== 'string' ||
        typeof payload.dst !== 'string'
      ) {
        return { error: 'invalid' };
      }
      return {
        keyId: payload.kid,
        environment: env,
        destination: payload.dst,
        state: typeof payload.st === 'string' ? payload.st : null,
        oauth: oauthRequest(payload.oa),
      };
    },
  };
}

/** The `oa` claim, authentic (the ticket's MAC verified) but still shape-checked. */
function oauthRequest(value: unknown): OAuthRequest | null {
  if (!value || typeof value !== 'object') return null;
  const { challenge, nonce, scope } = value as Record<string, unknown>;
  if (typeof challenge !== 'string' || typeof scope !== 'string') return null;
  return { challenge, scope, nonce: typeof nonce === 'string' ? nonce : null };
}
