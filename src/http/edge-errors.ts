import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createPooledIds } from '../platform/ids.js';
import { ERRORS, type ErrorCode, errorTypeUrl, ProblemError } from './errors.js';
import { PROBLEM_CONTENT_TYPE, sendProblem } from './problem.js';

/**
 * Issue 13, defect 7: the answers Fastify and Node give before any route runs, as problem+json
 * like every other error: a request Node cannot parse (raw non-ASCII in the request
 * line, an unknown method), headers over the limit (431), a URL Fastify cannot decode (400) or
 * with an over-long id (414), and requests arriving while the instance shuts down (503). None
 * of them echoes the URL: Fastify's defaults did, into a JSON body.
 */

/**
 * Answers a problem as an HTML page when the URL is a browser page's (the portal, the console,
 * the auth server's pages), returning true; false leaves it to problem+json. Given by the
 * composition root, since the pages belong to their capabilities.
 */
export type PageAnswer = (request: FastifyRequest, reply: FastifyReply, problem: ProblemError) => boolean;

/**
 * Fastify's `frameworkErrors`: a URL that does not decode, an id longer than `maxParamLength`.
 * Browser pages get an HTML page (`pageAnswer`), the API a problem.
 */
export function createFrameworkErrors(
  pageAnswer: PageAnswer,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const problem =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new ProblemError(
            'uri_too_long',
            'A path segment of this URL is longer than any id this API issues.',
          )
        : new ProblemError(
            'bad_request',
            'The URL is not valid: percent-encode it as UTF-8 (no raw non-ASCII bytes, no broken %-escapes).',
          );
    reply.header('x-request-id', request.id);
    if (pageAnswer(request, reply, problem)) return;
    sendProblem(request, reply, problem, { instance: '/' });
  };
}

/**
 * The http server's `clientError`: Node could not parse the request, so there is no request
 * object and no route. Answered on the socket directly, then closed (as Node itself does).
 */
export function createClientErrorHandler(
  origin: string,
): (error: NodeJS.ErrnoException, socket: Socket) => void {
  const nextRequestId = createPooledIds('req');
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (!socket.writable) {
      socket.destroy(error);
      return;
    }
    const [code, detail]: [ErrorCode, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ['headers_too_large', 'The request line and headers exceed 16 KiB.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['bad_request', 'The request was not received in time.']
          : [
              'bad_request',
              'The request could not be parsed as HTTP/1.1 (raw non-ASCII bytes in the URL, or an unknown method?).',
            ];
    const requestId = nextRequestId();
    const { status, title } = ERRORS[code];
    const body = JSON.stringify({
      type: errorTypeUrl(code, origin),
      title,
      status,
      detail,
      instance: '/',
      code,
      requestId,
    });
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
        `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  };
}

/**
 * Replaces Fastify's `return503OnClosing` (plain JSON) with a problem: once `close()` starts,
 * a request still arriving on a kept-alive connection gets `503 unavailable`, `Retry-After: 1`
 * and `Connection: close`, so its client reconnects (to another instance behind a balancer).
 */
export function registerShutdownAnswer(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    sendProblem(
      request,
      reply,
      new ProblemError(
        'unavailable',
        'This instance is shutting down. Retry: another instance will answer.',
        {
          headers: { 'retry-after': '1' },
        },
      ),
    );
  });
}
