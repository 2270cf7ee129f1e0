import type { FastifyReply, FastifyRequest } from 'fastify';
import { extractApiKey } from '../http/credentials.js';
import type { ErrorCode, PageErrorCode } from '../http/errors.js';
import type { KeyRecord } from '../keys/model.js';
import { hasScope } from '../keys/scopes.js';
import type { KeyService } from '../keys/service.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { RequestLimits } from '../limits/request-limits.js';
import type { Clock } from '../platform/clock.js';
import type { Environment } from '../platform/environment.js';
import type { ProjectService } from '../projects/service.js';
import type { User } from '../users/model.js';
import type { UserService } from '../users/service.js';
import { readCookie } from '../web/cookies.js';
import { checkDestination, redirectWithTokens } from './destination.js';
import { connectAccount, type LoginThrottle, loginSubjects } from './login-throttle.js';
import { type LoginTicket, TICKET_TTL_SECONDS, type TicketIssuer } from './login-ticket.js';
import type { OAuthService } from './oauth-service.js';
import type { LoginOrigin } from './token-families.js';
import type { IssuedTokens, TokenService } from './tokens.js';

/**
 * One login flow, two front doors (issues 14 and 17): `/connect` and `/authorize` both end on the
 * same login page, with the same CSRF ticket, throttling and CSP, through these named steps —
 * `checkApiKey → checkDestination → issueTicket | verifyTicket → checkThrottle →
 * verifyCredentials → issueTokens → redirectWithTokens` (a code instead of tokens for OAuth).
 * Each step returns a tagged result; the routes turn refusals into pages.
 */
export interface LoginDeps {
  environment: Environment;
  /** Origin of this environment; `{auth_url}` is `<origin>/auth`. */
  origin: string;
  clock: Clock;
  verifier: KeyVerifier;
  keys: Pick<KeyService, 'activeKey'>;
  projects: ProjectService;
  users: UserService;
  tokens: TokenService;
  oauth: OAuthService;
  tickets: TicketIssuer;
  throttle: LoginThrottle;
  limits?: RequestLimits;
}

/**
 * A refusal the routes render as an HTML error page (never a redirect); its status and title
 * come from the error table's page part (http/errors.ts).
 */
export interface Refusal {
  ok: false;
  code: PageErrorCode | ErrorCode;
  message: string;
  /** Seconds for `Retry-After`. */
  retryAfter?: number;
}

export interface VerifiedLogin {
  ok: true;
  ticket: LoginTicket;
  key: KeyRecord;
  projectName: string;
  destination: URL;
  raw: string;
}

/** What a login issued, by door. */
export type Issued = { door: 'connect'; tokens: IssuedTokens } | { door: 'oauth'; code: string };

export const KEY_PROBLEMS: Record<string, string> = {
  api_key_missing: 'The application did not identify itself (no API key).',
  api_key_invalid: 'The application sent an API key that is not valid.',
  api_key_revoked: "The application's API key has been revoked.",
  api_key_expired: "The application's API key has expired.",
  api_key_wrong_environment: "The application's API key belongs to the other environment.",
  api_key_conflict: 'The application sent two different API keys.',
};

const refused = (code: PageErrorCode, message: string): Refusal => ({ ok: false, code, message });
const unavailable = (message: string, code: PageErrorCode): Refusal => refused(code, message);

const tooMany: Refusal = {
  ok: false,
  message: 'Too many invalid sign-in links from your address. Try again in a minute.',
  code: 'rate_limited',
  retryAfter: 60,
};

export function createLoginFlow(deps: LoginDeps) {
  const { environment } = deps;
  const secure = deps.origin.startsWith('https:');
  const cookieName = secure ? '__Host-vitrine_login' : 'vitrine_login';
  const cookie = (value: string, maxAge: number) =>
    `${cookieName}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

  /** The key of a ticket, re-read: it may have been revoked while the user was typing. */
  async function activeKey(keyId: string): Promise<KeyRecord | null> {
    return deps.keys.activeKey(keyId, environment);
  }

  return {
    cookieName,

    /** `/connect`: the secret API key of the request, verified; guessing spends the address budget. */
    async checkApiKey(request: FastifyRequest): Promise<{ ok: true; key: KeyRecord } | Refusal> {
      let rawKey: string | null;
      try {
        rawKey = extractApiKey(request);
      } catch {
        return unavailable(KEY_PROBLEMS.api_key_conflict as string, 'api_key_conflict');
      }
      if (rawKey === null) return unavailable(KEY_PROBLEMS.api_key_missing as string, 'api_key_missing');
      // Guessing keys through the login page spends the same per-address budget as the API.
      try {
        await deps.limits?.checkAddress(request);
      } catch {
        return tooMany;
      }
      const verified = await deps.verifier.verify(rawKey, environment);
      if (!verified.ok) {
        try {
          await deps.limits?.addressFailed(request);
        } catch {
          return tooMany;
        }
        return unavailable(KEY_PROBLEMS[verified.code] as string, verified.code as PageErrorCode);
      }
      // A publishable key lives in browsers and apps, in the open: it signs nobody in (issue 16).
      if (!hasScope(verified.key, 'auth')) {
        return unavailable(
          'The application sent a publishable key, which can only search. Sign-in needs its secret key.',
          'api_key_scope',
        );
      }
      return { ok: true, key: verified.key };
    },

    /** `/authorize`: the key named by `client_id` (its public id), active in this environment. */
    async checkClientId(clientId: string | undefined): Promise<{ ok: true; key: KeyRecord } | Refusal> {
      const key = clientId && /^key_[0-9A-Za-z]{1,40}$/.test(clientId) ? await activeKey(clientId) : null;
      if (!key) return unavailable('The application is not known here (client_id).', 'invalid_client');
      return { ok: true, key };
    },

    /** The project's registered destinations, and the one asked for (`destination` or `redirect_uri`). */
    async checkDestination(
      key: KeyRecord,
      raw: string | undefined | null,
    ): Promise<{ ok: true; url: URL; projectName: string } | { ok: false; reason: string }> {
      const project = await deps.projects.get(key.projectId);
      if (raw === null) return { ok: false, reason: 'The destination was given more than once.' };
      const checked = checkDestination(raw, project?.redirectUris ?? []);
      if (!project || !checked.ok) return { ok: false, reason: checked.ok ? '' : checked.reason };
      return { ok: true, url: checked.url, projectName: project.name };
    },

    /** Signs the ticket the form carries and sets its CSRF cookie. */
    async issueTicket(reply: FastifyReply, ticket: LoginTicket): Promise<string> {
      const issued = await deps.tickets.issue(ticket);
      reply.header('set-cookie', cookie(issued.nonce, TICKET_TTL_SECONDS));
      return issued.ticket;
    },

    /** Ticket + CSRF cookie + key + destination of a posted form or a page link. */
    async verifyTicket(request: FastifyRequest, rawTicket: string): Promise<VerifiedLogin | Refusal> {
      // Fetch metadata: a browser says where the form came from; only this origin may post it.
      const site = request.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        return refused('csrf_rejected', 'This form was not sent from this site.');
      }
      const verified = await deps.tickets.verify(rawTicket, readCookie(request, cookieName));
      if ('error' in verified) {
        return verified.error === 'expired'
          ? refused('login_expired', 'The sign-in page was open too long.')
          : refused(
              'csrf_rejected',
              'This form could not be verified (is the page open in another browser, or are cookies blocked?).',
            );
      }
      if (verified.environment !== environment) {
        return refused('csrf_rejected', 'This form belongs to the other environment.');
      }
      const key = await activeKey(verified.keyId);
      const destination = key ? await this.checkDestination(key, verified.destination) : undefined;
      if (!key || !destination?.ok) {
        return unavailable('The application can no longer sign users in.', 'application_unavailable');
      }
      return {
        ok: true,
        ticket: verified,
        key,
        projectName: destination.projectName,
        destination: destination.url,
        raw: rawTicket,
      };
    },

    /** Milliseconds to wait before another attempt for this account and address (0: go on). */
    checkThrottle(email: string, address: string) {
      // Issue 13: per account+address pair, per address, and an account-wide cap that
      // known-good addresses pass (login-throttle.ts), so nobody can lock an account out.
      const subjects = loginSubjects(connectAccount(environment, email), address);
      return {
        wait: deps.throttle.retryAfter(subjects),
        failed: () => deps.throttle.failure(subjects),
        succeeded: () => deps.throttle.success(subjects),
      };
    },

    verifyCredentials(email: string, password: string): Promise<User | null> {
      return deps.users.authenticate(environment, email, password);
    },

    /**
     * The end of a successful login, by door: `/connect` gets the tokens themselves,
     * `/authorize` a single-use code that stands for them.
     */
    async issueTokens(login: VerifiedLogin, user: User, origin: LoginOrigin): Promise<Issued> {
      if (login.ticket.oauth) {
        const code = await deps.oauth.issueCode({
          user,
          key: login.key,
          redirectUri: login.ticket.destination,
          request: login.ticket.oauth,
          origin,
        });
        return { door: 'oauth', code };
      }
      return { door: 'connect', tokens: await deps.tokens.login(user, login.key, origin) };
    },

    /** Where the browser goes: the tokens in the query, or the code with `state` and `iss` (RFC 9207). */
    redirectWithTokens(login: VerifiedLogin, issued: Issued): string {
      if (issued.door === 'oauth') {
        return redirectWithCode(login.destination, {
          code: issued.code,
          state: login.ticket.state,
          iss: `${deps.origin}/auth`,
        });
      }
      return redirectWithTokens(login.destination, {
        jwt: issued.tokens.accessToken,
        refresh: issued.tokens.refreshToken,
        state: login.ticket.state,
      });
    },

    clearTicketCookie(reply: FastifyReply) {
      reply.header('set-cookie', cookie('', 0));
    },
  };
}

export type LoginFlow = ReturnType<typeof createLoginFlow>;

/** RFC 6749 §4.1.2 and RFC 9207: the redirect URI with `code`, `state` and `iss`, its own query kept. */
export function redirectWithCode(
  redirectUri: URL,
  params: { code: string; state: string | null; iss: string },
): string {
  const url = new URL(redirectUri.href);
  for (const name of ['code', 'state', 'iss', 'error', 'error_description']) url.searchParams.delete(name);
  url.searchParams.set('code', params.code);
  if (params.state !== null) url.searchParams.set('state', params.state);
  url.searchParams.set('iss', params.iss);
  return url.href;
}

/** RFC 6749 §4.1.2.1: an error back to a *verified* redirect URI, with `state` and `iss`. */
export function redirectWithError(
  redirectUri: URL,
  params: { error: string; description: string; state: string | null; iss: string },
): string {
  const url = new URL(redirectUri.href);
  for (const name of ['code', 'state', 'iss', 'error', 'error_description']) url.searchParams.delete(name);
  url.searchParams.set('error', params.error);
  url.searchParams.set('error_description', params.description);
  if (params.state !== null) url.searchParams.set('state', params.state);
  url.searchParams.set('iss', params.iss);
  return url.href;
}
