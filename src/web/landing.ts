import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_DOCS_PATH, ERRORS, type ErrorCode } from '../http/errors.js';
import type { Environment } from '../platform/environment.js';
import { html, type SafeHtml } from './html.js';
import { documentHead } from './layout.js';
import { pageSecurityHeaders } from './security-headers.js';

export interface LandingDeps {
  environment: Environment;
  /** The public origin of each environment. */
  origins: Record<Environment, string>;
  /** The portal and console are mounted here (the production listener). */
  hasPortal: boolean;
}

interface Link {
  rel: string;
  href: string;
  title: string;
}

/** What runs on this listener and where to go next, as links a person or a program can follow. */
export function landingLinks(deps: LandingDeps): Link[] {
  const own = deps.origins[deps.environment];
  const links: Link[] = [
    {
      rel: 'base_url',
      href: `${own}/v1`,
      title: `Search API ({base_url}) of the ${deps.environment} environment`,
    },
    {
      rel: 'auth_url',
      href: `${own}/auth`,
      title: `Auth server ({auth_url}) of the ${deps.environment} environment`,
    },
    { rel: 'docs', href: `${own}/docs`, title: `API reference of the ${deps.environment} environment` },
    { rel: 'openapi', href: `${own}/openapi.json`, title: 'OpenAPI 3.1 document of this listener' },
    { rel: 'errors', href: `${own}${ERROR_DOCS_PATH}`, title: 'Error codes' },
  ];
  const other: Environment = deps.environment === 'production' ? 'testing' : 'production';
  links.push({
    rel: `${other}_base_url`,
    href: `${deps.origins[other]}/v1`,
    title: `Search API ({base_url}) of the ${other} environment`,
  });
  const portalOrigin = deps.origins.production;
  links.push(
    { rel: 'portal', href: `${portalOrigin}/portal/`, title: 'Developer portal: projects and API keys' },
    { rel: 'console', href: `${portalOrigin}/console/`, title: 'Operator console' },
  );
  return links;
}

function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /application\/(json|problem\+json)/.test(accept) && !/text\/html/.test(accept);
}

function page(title: string, body: SafeHtml): string {
  return html`${documentHead(title)}
<body class="app">
<header class="topbar"><p class="brand"><a href="/">Vitrine</a></p></header>
<main class="page" id="content">
${body}
</main>
</body>
</html>
`.value;
}

function landingPage(deps: LandingDeps): string {
  const links = landingLinks(deps);
  return page(
    `Vitrine (${deps.environment})`,
    html`<h1>Vitrine, ${deps.environment} environment</h1>
<p>An offer search service with API-key and token authentication. This listener serves the
${deps.environment} environment${deps.hasPortal ? html`, the developer portal and the operator console` : ''}.</p>
<ul class="links">${links.map(
      (l) => html`<li><a href="${l.href}">${l.title}</a> <code>${l.href}</code></li>`,
    )}</ul>
<p>New here? Open the API reference, paste your key in "Authorize" and try a search; then apply
for keys of your own in the developer portal. The program-readable form of this page is
<code>curl -H 'Accept: application/json' ${deps.origins[deps.environment]}/</code>.</p>`,
  );
}

/** The error table as an HTML page: every problem's `type` URL points at its entry here. */
export function errorReferencePage(): string {
  const codes = Object.keys(ERRORS) as ErrorCode[];
  return page(
    'Errors · Vitrine',
    html`<h1>Errors</h1>
<p>Every API error is <code>application/problem+json</code> with a stable <code>code</code>;
clients branch on it. <code>detail</code> is for people; quote <code>requestId</code> when asking
for help.</p>
<table class="errors"><thead><tr><th scope="col">code</th><th scope="col">status</th><th scope="col">meaning</th></tr></thead>
<tbody>${codes.map((code) => {
      const e = ERRORS[code];
      return html`<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${e.status}</td><td><strong>${e.title}.</strong> ${e.help}</td></tr>`;
    })}</tbody></table>`,
  );
}

function sendPage(reply: FastifyReply, body: string) {
  pageSecurityHeaders(reply);
  return reply.type('text/html; charset=utf-8').send(body);
}

/** `/` (HTML, or JSON for `Accept: application/json`) and the error reference `/docs/errors`. */
export function registerLandingRoutes(app: FastifyInstance, deps: LandingDeps): void {
  const errors = errorReferencePage();
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    reply.header('vary', 'accept');
    if (wantsJson(request)) return { environment: deps.environment, links: landingLinks(deps) };
    return sendPage(reply, landingPage(deps));
  });
  app.get(ERROR_DOCS_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return sendPage(reply, errors);
  });
}
