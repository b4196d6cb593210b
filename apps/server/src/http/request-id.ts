import { randomUUID } from 'node:crypto';

const REQUEST_ID_PATTERN = /^[\w-]{8,64}$/;

/**
 * The request id every answer carries (X-Request-Id): the caller's own when it is a plain
 * token of 8 to 64 word characters, else a new UUID. Vetted here, because an unchecked header
 * could inject into the logs. Fastify's genReqId and the lean v1 path both use it.
 */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
}
