import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientIpFinder, clientIpOf } from '../../lib/client-ip.ts';
import { registerRoutes } from '../../http/route-definition.ts';
import {
  createKeyauthAnswerer,
  keyauthErrorAnswer,
  type KeyauthApiDependencies,
  type KeyauthHttpAnswer,
} from './keyauth-answerer.ts';
import { answerKeyauthBeforeFastify, KEYAUTH_BODY_LIMIT_BYTES } from './keyauth-raw-path.ts';
import { keyauthRoutes, type KeyauthRouteServices } from './keyauth-route-definitions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** KeyAuth's form POSTs answered in front of Fastify; absent with the lean path off. */
    keyauthRawPath?: { readonly answeredCount: number };
  }
}

/**
 * The KeyAuth-compatible client API, /api/1.2/ and /api/1.3/ (docs/keyauth-migration.md):
 * programs built on KeyAuth's own client libraries reach an application that has compatibility
 * on. The answers are made in keyauth-answerer.ts; a form POST, what KeyAuth's clients send,
 * is answered in front of Fastify (keyauth-raw-path.ts, as v1's lean path does for verify and
 * heartbeat: Fastify's lifecycle cost `check` more than the rest of its work), everything else
 * (a GET with a query, another content type, a chunked body) by the Fastify routes here.
 */
export async function registerKeyauthApi(
  app: FastifyInstance,
  deps: KeyauthApiDependencies,
): Promise<void> {
  const answer = createKeyauthAnswerer(deps);
  const send = (reply: FastifyReply, answered: KeyauthHttpAnswer) =>
    reply.headers(answered.headers).send(answered.body);

  const services: KeyauthRouteServices = {
    async answerRoute(version, { request, reply }) {
      reply.header('x-request-id', request.id).header('cache-control', 'no-store');
      return send(
        reply,
        await answer({
          version,
          fields: fieldsOf(request),
          ipAddress: clientIpOf(request),
          log: request.log,
          headers: request.headers,
          origin: () => `${request.protocol}://${request.host}`,
        }),
      );
    },
  };
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // KeyAuth's clients post form fields; PHP reads any body as such, so anything else too.
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: KEYAUTH_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.setErrorHandler((error, request, reply) => {
      const failed = keyauthErrorAnswer(error, request.log);
      return reply.status(failed.status).headers(failed.headers).send(failed.body);
    });
    registerRoutes(scope, keyauthRoutes, services);
  });
  if (deps.config.clientApi.isLeanPathEnabled) {
    const rawPath = answerKeyauthBeforeFastify(app.server, {
      answer,
      ipOf: clientIpFinder(deps.config.trustProxyHops),
      trustProxyHops: deps.config.trustProxyHops,
      log: app.log,
    });
    app.addHook('preClose', () => rawPath.close());
    app.decorate('keyauthRawPath', rawPath);
  }
}

/** KeyAuth reads `$_POST[x] ?? $_GET[x]`: the body's fields, then the query's. Strings only. */
function fieldsOf(request: FastifyRequest): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      if (typeof value === 'string') fields[key] = value;
    }
  }
  return fields;
}
