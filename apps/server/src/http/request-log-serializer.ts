import type { FastifyRequest } from 'fastify';

const DOWNLOAD_TOKEN_IN_PATH = /^(\/api\/v1\/downloads\/)[^/?#]+/;

/** A request's path as logs may hold it: a download URL's token is a bearer secret. */
export function loggablePath(url: string): string {
  return url.replace(DOWNLOAD_TOKEN_IN_PATH, '$1[redacted]');
}

/**
 * The request as Fastify logs it ("incoming request", errors), with the fields of its default
 * serializer, but the download token cut from the path (guide: bearer secrets are never
 * logged). Headers are not logged at all.
 */
export function serializeRequestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggablePath(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
