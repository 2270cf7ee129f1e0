import { parentPort } from 'node:worker_threads';
import { createLocalMatcher, type MatcherReply, type MatcherRequest } from './matcher.js';

/**
 * The matching worker (matcher.ts `createWorkerMatcher`): the saved searches filed and the
 * changed offers matched off the main thread. Requests are answered in order, one at a time.
 */
const matcher = createLocalMatcher();
const port = parentPort;
if (port === null) throw new Error('matching-worker.ts runs as a worker thread');

async function answer(request: MatcherRequest): Promise<unknown> {
  switch (request.kind) {
    case 'begin':
      return matcher.begin(request.environment, request.rules, request.sample);
    case 'file':
      return matcher.file(request.environment, request.searches);
    case 'remove':
      return matcher.remove(request.environment, request.ids);
    case 'match':
      return matcher.match(request.environment, request.rows, request.now);
  }
}

let queue = Promise.resolve();
port.on('message', (request: MatcherRequest) => {
  queue = queue.then(async () => {
    let reply: MatcherReply;
    try {
      reply = { id: request.id, result: await answer(request) };
    } catch (error) {
      reply = {
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      };
    }
    port.postMessage(reply);
  });
});
