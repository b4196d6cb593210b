import type { FastifyInstance } from 'fastify';

/**
 * With CLIENT_API_PORT each listener serves one side. A request for the other
 * side's routes gets a clear 404 naming where they are, in that side's own error shape, so a
 * misconfigured program or proxy is told what is wrong instead of seeing a bare "not found".
 */

/**
 * On the console's workers: /api/v1 (and the KeyAuth-compatible /api/1.2 and /api/1.3) in the
 * client API's error shape (unsigned: no key here).
 */
export function registerClientApiElsewhere(app: FastifyInstance): void {
  for (const prefix of ['/api/v1', '/api/1.2', '/api/1.3']) {
    app.register(
      async (scope) => {
        scope.setNotFoundHandler((request, reply) =>
          reply.status(404).send({
            success: false,
            code: 'INVALID_REQUEST',
            message: `Route ${request.method} ${request.url.split('?')[0]} not found: the client API is served on its own port (CLIENT_API_PORT)`,
          }),
        );
      },
      { prefix },
    );
  }
}

/** On the client API's workers: everything but /api/v1 (and KeyAuth's paths), health and metrics. */
export function registerConsoleElsewhere(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      message: `Route ${request.method} ${request.url.split('?')[0]} not found: this port serves the client API (/api/v1); the console and the owner API are on PORT`,
      code: 'NOT_FOUND',
    }),
  );
}
