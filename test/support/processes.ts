import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';

/** Real `vitrine` processes and the network parts around them, for the multi-instance tests. */
const root = path.resolve(import.meta.dirname, '../..');

/**
 * Node arguments that run the `vitrine` command: the run's transpiled build (test/support/
 * cli-build.ts: a process starts about three times faster than through tsx), or the sources
 * through tsx when there is none.
 */
export function vitrineArgv(...args: string[]): string[] {
  const entry = inject('vitrineEntry');
  return entry ? [entry, ...args] : ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface Instance {
  child: ChildProcess;
  origin: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `vitrine serve --env testing` on a free port; resolves when it is ready (/readyz 200: the
 * database answers and the search index is built), as a load balancer would wait for it.
 */
export async function startInstance(env: NodeJS.ProcessEnv): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, vitrineArgv('serve', '--env', 'testing'), {
    cwd: root,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', TESTING_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c) => {
    out += String(c);
  });
  child.stderr?.on('data', (c) => {
    out += String(c);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const origin = `http://127.0.0.1:${port}`;
  // Generous: on a loaded 2-core machine compiling and starting the server can take many seconds.
  const deadline = performance.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited with ${child.exitCode}:\n${out}`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL'); // never leave a half-started server behind
      throw new Error(`instance did not start:\n${out}`);
    }
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    origin,
    output: () => out,
    stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Polls `check` every 25 ms until it holds or `deadlineMs` passes; returns the elapsed ms or throws. */
export async function eventually(
  check: () => Promise<boolean>,
  deadlineMs: number,
  what: string,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > deadlineMs) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A TCP proxy in front of PostgreSQL, to cut the database off from an instance without touching
 * the shared server. `cut()` closes the listener and every connection; `restore()` listens again.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  await listen();
  return {
    port,
    async cut() {
      const s = server as net.Server | null;
      server = null;
      for (const socket of sockets) socket.destroy();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    restore: listen,
  };
}

/** A throwaway `redis-server` of our own (never the shared one on 6379), to kill and restart. */
export async function startRedisServer(port?: number) {
  const p = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const s = net.connect(p, '127.0.0.1', () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      }),
    5000,
    'redis-server listening',
  );
  return {
    port: p,
    url: `redis://127.0.0.1:${p}`,
    kill(): Promise<void> {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    },
  };
}
