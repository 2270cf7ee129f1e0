import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Environment } from '../platform/environment.js';
import {
  createClientErrorHandler,
  createFrameworkErrors,
  type PageAnswer,
  registerShutdownAnswer,
} from './edge-errors.js';
import { parseForm, unsafeFormProblem } from './form.js';
import { registerOpenApi } from './openapi.js';
import { registerProblemHandlers } from './problem.js';
import { registerRequestHooks } from './request-hooks.js';
import { createRequestIds } from './request-id.js';
import { trackRoutes } from './route-inventory.js';
import { sharedSerializers } from './serialization.js';
import { origins } from './urls.js';
import { validatorCompiler } from './validation.js';

export const SERVED_VERSIONS = ['v1'] as const;

/**
 * The HTTP floor every capability stands on, for one environment: request ids, problem+json for
 * every error (also before any route, edge-errors.ts), form bodies, HSTS, the OpenAPI document,
 * deprecation headers. No route of any capability: `src/app.ts` mounts those.
 */
export async function createHttpServer(options: {
  config: Config;
  environment: Environment;
  logger: Logger;
  /** HTML pages of the capabilities answer framework errors on their URLs (edge-errors.ts). */
  pageAnswer: PageAnswer;
}): Promise<FastifyInstance> {
  const { config, environment } = options;
  const origin = origins(config)[environment];
  const app = Fastify({
    loggerInstance: options.logger.child({ env: environment }) as FastifyBaseLogger,
    genReqId: createRequestIds(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Issue 13: problem+json before any route too (edge-errors.ts).
    return503OnClosing: false,
    frameworkErrors: createFrameworkErrors(options.pageAnswer),
    clientErrorHandler: createClientErrorHandler(origin),
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers } },
  });
  app.decorate('publicOrigin', origin);
  trackRoutes(app);
  registerShutdownAnswer(app);
  app.setValidatorCompiler(validatorCompiler());
  app.decorateRequest('apiKey', null);
  app.decorateRequest('endUser', null);
  app.decorateRequest('endUserSession', null);
  // HTML forms (login) and RFC 6749/7009-style token requests send urlencoded bodies.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      const fields = parseForm(String(body));
      const unsafe = unsafeFormProblem(fields);
      if (unsafe) done(unsafe, undefined);
      else done(null, fields);
    },
  );
  // Callback style: a synchronous hook on every request should not allocate a promise.
  // Issue 13: served over https, browsers are told to stay on it (RFC 6797); never over http.
  const hsts = origin.startsWith('https:');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (hsts) reply.header('strict-transport-security', 'max-age=31536000');
    done();
  });
  registerProblemHandlers(app, SERVED_VERSIONS);
  await registerOpenApi(app, environment, origin);
  registerRequestHooks(app, { deprecations: config.apiDeprecations });
  return app;
}
