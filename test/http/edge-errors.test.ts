import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createTestContext, type TestContext } from '../support/context.js';

/**
 * Issue 13, defect 7: what Node and Fastify answer before any route runs was their default JSON
 * (two echoing the URL), and an unknown method answered 404. Now problem+json throughout, and
 * `405` with `Allow`. Checked on a real socket where `inject` cannot reach (Node's parser).
 */
const PROBLEM = 'application/problem+json; charset=utf-8';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): RawResponse {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

/** Sends raw bytes, resolves with everything received until the server closes or goes quiet. */
function raw(port: number, bytes: string | Buffer, quietMs = 1500): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    let timer = setTimeout(() => socket.destroy(), quietMs);
    socket.on('data', (chunk) => {
      out += String(chunk);
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), quietMs);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(out));
  });
}

function expectProblem(response: RawResponse, status: number, code: string, secret?: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe(PROBLEM);
  const body = JSON.parse(response.body);
  expect(body).toMatchObject({
    status,
    code,
    type: expect.stringMatching(new RegExp(`^http://localhost:808[01]/docs/errors#${code}$`)),
  });
  expect(body.requestId).toEqual(expect.any(String));
  if (secret) expect(response.body).not.toContain(secret);
}

describe('problem+json before any route', () => {
  let t: TestContext;
  let port: number;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
    await t.apps.production.listen({ port: 0, host: '127.0.0.1' });
    port = (t.apps.production.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('a raw non-ASCII URL: 400 bad_request', async () => {
    const bytes = Buffer.concat([
      Buffer.from('GET /v1/offers/caf'),
      Buffer.from([0xc3, 0xa9]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]);
    expectProblem(parse(await raw(port, bytes)), 400, 'bad_request');
  });

  it('a URL that does not decode: 400 bad_request, without echoing it', async () => {
    expectProblem(
      parse(await raw(port, 'GET /v1/offers/%E0%A4%Asecretpath HTTP/1.1\r\nHost: x\r\n\r\n')),
      400,
      'bad_request',
      'secretpath',
    );
  });

  it('an over-long id: 414 uri_too_long, without echoing it', async () => {
    const id = `x${'a'.repeat(300)}`;
    expectProblem(
      parse(await raw(port, `GET /v1/offers/${id} HTTP/1.1\r\nHost: x\r\n\r\n`)),
      414,
      'uri_too_long',
      id,
    );
  });

  it('on browser pages the same failures are HTML pages, not problems', async () => {
    const res = await t.apps.production.inject({
      method: 'POST',
      url: `/console/applications/${'a'.repeat(300)}/reject`,
    });
    expect(res.statusCode).toBe(414);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('uri_too_long');
    const bad = await t.apps.production.inject('/portal/projects/%E0%A4%A');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
  });

  it('headers over the limit: 431 headers_too_large', async () => {
    const big = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    expectProblem(parse(await raw(port, big)), 431, 'headers_too_large');
    const longQuery = `GET /v1/offers/?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`;
    expectProblem(parse(await raw(port, longQuery)), 431, 'headers_too_large', 'aaaaaaaaaaaaaaaaaaaaaaaa');
  });

  it('a method a path does not answer: 405 method_not_allowed with Allow', async () => {
    for (const [method, url, allow] of [
      // The search API also answers CORS preflights (issue 16).
      ['DELETE', '/v1/offers/', 'GET, HEAD, OPTIONS'],
      ['POST', '/v1/offers/off_abc', 'GET, HEAD, OPTIONS'],
      ['PATCH', '/healthz', 'GET, HEAD'],
    ] as const) {
      const res = await t.apps.production.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.headers['content-type']).toBe(PROBLEM);
      expect(res.json().code).toBe('method_not_allowed');
    }
    // A path where nothing lives is still 404.
    expect((await t.apps.production.inject({ method: 'DELETE', url: '/nothing/here' })).statusCode).toBe(404);
  });
});

describe('503 while shutting down', () => {
  let t: TestContext;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('a request arriving during close gets 503 unavailable as problem+json, Connection: close', async () => {
    const d = t.deps;
    app = await buildApp(d, 'testing');
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get('/slow-test-route', async () => {
      entered();
      await gate;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    // A is in flight (so its connection is not idle and stays open); B follows once close began.
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += String(chunk);
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /slow-test-route HTTP/1.1\r\nHost: x\r\n\r\n');
    await inside;
    const closed = app.close();
    // Close has begun once the server stops listening (after the preClose hooks).
    while (app.server.listening) await new Promise((resolve) => setImmediate(resolve));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    release();
    await ended;
    await closed;
    const second = text.slice(text.indexOf('HTTP/1.1', 10));
    const response = parse(second);
    expectProblem(response, 503, 'unavailable');
    expect(response.headers.connection).toBe('close');
    expect(response.headers['retry-after']).toBe('1');
  });
});
