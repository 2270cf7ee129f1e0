import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieJar } from './cookies.js';

/**
 * One-time messages after a form (post/redirect/get): the redirect sets a short-lived cookie
 * naming the message, the next page shows it and clears the cookie, so a reload shows the page
 * without it (issue 15: `?done=…` in the URL came back on every reload and in bookmarks).
 * Only names of the given table travel; the text comes from the table, never from the request.
 */
export interface Flashes<Name extends string> {
  redirect(reply: FastifyReply, location: string, name: Name): FastifyReply;
  /** The message waiting for this request, if any; clears it. */
  take(request: FastifyRequest, reply: FastifyReply): string | undefined;
}

const FLASH_SECONDS = 60;

export function flashes<Name extends string>(
  area: 'portal' | 'console',
  secure: boolean,
  messages: Record<Name, string>,
): Flashes<Name> {
  const jar = cookieJar(`vitrine_${area}_flash`, secure);
  return {
    redirect(reply, location, name) {
      jar.set(reply, name, FLASH_SECONDS);
      return reply.code(303).header('location', location).send();
    },
    take(request, reply) {
      const name = jar.read(request);
      if (name === undefined) return undefined;
      jar.clear(reply);
      return Object.hasOwn(messages, name) ? messages[name as Name] : undefined;
    },
  };
}
