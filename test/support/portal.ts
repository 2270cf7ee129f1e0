import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Deps } from '../../src/deps.js';
import { FORM } from './auth.js';

/**
 * Issue 27: a developer confirms their address before applying for a production key. Tests that
 * are not about that confirm it here (test/accounts follows the mailed link instead).
 */
export async function confirmDeveloperEmail(deps: Deps, email: string): Promise<void> {
  const developer = await deps.developers.findByEmail(email);
  if (!developer) throw new Error(`no developer ${email}`);
  await deps.developers.markVerified(developer.id);
}

/**
 * A browser for the portal and console driven through `app.inject()`: it keeps cookies, reads
 * the CSRF token of the last page, and posts forms with it (or with a tampered one).
 */
export class PageAgent {
  readonly cookies = new Map<string, string>();
  lastBody = '';

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(response: LightMyRequestResponse): LightMyRequestResponse {
    const set = response.headers['set-cookie'];
    for (const line of set === undefined ? [] : Array.isArray(set) ? set : [set]) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      if (attributes.some((a) => a.trim() === 'Max-Age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
    this.lastBody = response.body;
    return response;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.app.inject({ url, remoteAddress: this.ip, headers: { cookie: this.cookieHeader } }),
    );
  }

  /** The CSRF token of the last page (or of `body`). */
  csrf(body = this.lastBody): string {
    return /name="csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
  }

  /** Posts a form; `csrf` undefined means the token of the last page, null means none at all. */
  async post(
    url: string,
    fields: Record<string, string> = {},
    options: { csrf?: string | null; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const csrf = options.csrf === undefined ? this.csrf() : options.csrf;
    const body = new URLSearchParams(csrf === null ? fields : { csrf, ...fields });
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        remoteAddress: this.ip,
        headers: { ...FORM, cookie: this.cookieHeader, ...options.headers },
        payload: body.toString(),
      }),
    );
  }

  async signUp(email: string, password: string, name = ''): Promise<LightMyRequestResponse> {
    await this.get('/portal/signup');
    return this.post('/portal/signup', { email, password, name });
  }

  async signIn(area: 'portal' | 'console', email: string, password: string): Promise<LightMyRequestResponse> {
    await this.get(`/${area}/signin`);
    return this.post(`/${area}/signin`, { email, password });
  }

  /** Creates a project through the form; returns its id. */
  async createProject(name: string, redirectUris: string[] = []): Promise<string> {
    await this.get('/portal/projects/new');
    const res = await this.post('/portal/projects', { name, redirectUris: redirectUris.join('\n') });
    const id = /\/portal\/projects\/(prj_[\w]+)/.exec(String(res.headers.location))?.[1];
    if (res.statusCode !== 303 || !id) throw new Error(`project not created: ${res.statusCode} ${res.body}`);
    return id;
  }

  /** Applies for a key on the project page; returns the project page afterwards. */
  async apply(projectId: string, environment: string, wantsRefresh = false, refreshReason = '') {
    await this.get(`/portal/projects/${projectId}`);
    const res = await this.post(`/portal/projects/${projectId}/applications`, {
      environment,
      ...(wantsRefresh ? { wantsRefresh: 'yes', refreshReason } : {}),
    });
    if (res.statusCode !== 303) throw new Error(`apply answered ${res.statusCode}: ${res.body}`);
    return this.get(String(res.headers.location));
  }

  /** Reveals a waiting key from the project page; returns the secret. */
  async reveal(projectId: string): Promise<string> {
    const page = await this.get(`/portal/projects/${projectId}`);
    const action = /action="(\/portal\/applications\/app_\w+\/reveal)"/.exec(page.body)?.[1];
    if (!action) throw new Error('no key waiting to be revealed');
    const res = await this.post(action);
    const secret = /id="secret">(vk_[\w]+)</.exec(res.body)?.[1];
    if (!secret) throw new Error(`reveal answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
    return secret;
  }
}
