import type { FastifyInstance } from 'fastify';
import type { UsageMeter } from './meter.js';

/** Meters every answer given to a verified API key, whatever its status. */
export function registerUsageMetering(app: FastifyInstance, meter: UsageMeter): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.apiKey) meter.record(request.apiKey.id, reply.statusCode);
  });
}
