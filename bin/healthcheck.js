#!/usr/bin/env node
// The container's health check (Dockerfile HEALTHCHECK), issue 13. An instance listens on PORT
// (production), TESTING_PORT (testing) or both, depending on `serve --env`; the check cannot see
// the command line, so it asks both: a port that refuses the connection is not served by this
// instance; every port that accepts must answer /healthz with 200, and at least one must.
// Exit 0: healthy; 1: not. No dependency beyond Node itself (no curl in the image).
import net from 'node:net';

const host = '127.0.0.1';
const ports = [process.env.PORT || '8080', process.env.TESTING_PORT || '8081'].map(Number);

function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function healthy(port) {
  try {
    const response = await fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

const served = [];
for (const port of new Set(ports)) if (await listening(port)) served.push(port);
const results = await Promise.all(served.map(healthy));
process.exit(served.length > 0 && results.every(Boolean) ? 0 : 1);
