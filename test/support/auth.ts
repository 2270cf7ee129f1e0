import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** The /connect login flow driven through `app.inject()`, as a browser would. */
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export interface LoginPage {
  response: LightMyRequestResponse;
  ticket: string;
  cookie: string;
}

export async function openLogin(
  app: FastifyInstance,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LoginPage> {
  const response = await app.inject({
    url: `/auth/connect?${new URLSearchParams(params).toString()}`,
    headers,
  });
  const ticket = /name="ticket" value="([^"]+)"/.exec(response.body)?.[1] ?? '';
  const cookie = String(response.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  return { response, ticket, cookie };
}

export function submitLogin(
  app: FastifyInstance,
  page: Pick<LoginPage, 'ticket' | 'cookie'>,
  credentials: { email: string; password: string },
  headers: Record<string, string> = {},
  remoteAddress = '127.0.0.1',
) {
  return app.inject({
    method: 'POST',
    url: '/auth/connect',
    remoteAddress,
    headers: { ...FORM, cookie: page.cookie, ...headers },
    payload: new URLSearchParams({ ticket: page.ticket, ...credentials }).toString(),
  });
}

/** Logs in and returns the redirect's query (`jwt`, `refresh`, `state`, …). */
export async function loginTokens(
  app: FastifyInstance,
  key: string,
  credentials: { email: string; password: string },
  destination = 'https://app.example.com/callback',
): Promise<{ jwt: string; refresh: string | null; location: URL }> {
  const page = await openLogin(app, { apiKey: key, destination });
  const res = await submitLogin(app, page, credentials);
  if (res.statusCode !== 303) throw new Error(`login answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  const location = new URL(String(res.headers.location));
  return {
    jwt: location.searchParams.get('jwt') ?? '',
    refresh: location.searchParams.get('refresh'),
    location,
  };
}
