import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientApiHeaders } from '@latchkey/contracts';
import { createJsonBodyReader } from '../../http/accept-empty-json-bodies.ts';
import { refuseUncleanClientText } from '../../http/refuse-unclean-request-text.ts';
import { clientIpFinder } from '../../lib/client-ip.ts';
import {
  createRouteObserver,
  UNMATCHED_ROUTE,
  type UnmatchedObserver,
} from '../../metrics/observe-http-requests.ts';
import {
  type ClientApiError,
  handleClientApiError,
  handleClientApiNotFound,
  type OnClientErrorAnswer,
} from './client-api-error.ts';
import type { ClientApplication } from './client-app-cache.ts';
import {
  createClientCallPipeline,
  type ClientCallPipeline,
  type ClientPipelineDependencies,
} from './client-call-pipeline.ts';
import { clientCalls } from './client-calls.ts';
import {
  answerBeforeFastify,
  createLeanClientPath,
  type LeanClientPath,
} from './lean-client-path.ts';
import { serializeClientAnswer } from './serialized-once.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The application the X-API-Key header identified (client API only; null elsewhere). */
    clientApp: ClientApplication | null;
    /** The client's address, normalised (client API only). */
    clientIp: string;
    /** The X-Request-Nonce the response signature binds ('' when absent). */
    clientNonce: string;
  }
  interface FastifyInstance {
    /** The client API's lean path (verify, heartbeat); absent where /api/v1 is not served. */
    clientApiLeanPath: LeanClientPath;
    /**
     * Signs a client-API answer the router gave before the v1 scope ran (a malformed path
     * parameter); absent where /api/v1 is not served.
     */
    signUnroutedClientAnswer?: ClientCallPipeline['signUnrouted'];
  }
}

const V1_PREFIX = '/api/v1';

/**
 * The public client API, /api/v1 (docs/client-api.md): each call of the table in
 * client-calls.ts, run through the one pipeline of client-call-pipeline.ts, in a scope of
 * its own (its errors and unknown paths answer in the v1 shape and every answer is signed),
 * with the lean path in front of Fastify for the calls a program makes every few seconds.
 */
export async function registerClientApiRoutes(
  app: FastifyInstance,
  deps: Omit<ClientPipelineDependencies, 'log'> & {
    /** Times 404s in the HTTP metrics (no scope-wide hook on the hot path). */
    observeUnmatched: UnmatchedObserver | null;
  },
): Promise<ClientCallPipeline> {
  const { config } = deps;
  const pipeline = createClientCallPipeline({ ...deps, log: app.log });
  app.addHook('onClose', () => pipeline.close());
  const countError: OnClientErrorAnswer = (request, code) =>
    pipeline.countFor(
      request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
    )(code);

  const signResponse = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ) => {
    if (
      payload !== null &&
      payload !== undefined &&
      typeof payload !== 'string' &&
      !Buffer.isBuffer(payload)
    ) {
      return done(new Error('client API responses must not be streamed: they are signed'));
    }
    const { signature, timestamp } = pipeline.sign(
      request.clientApp,
      request.clientNonce,
      payload ?? '',
    );
    reply.header(clientApiHeaders.signature, signature);
    reply.header(clientApiHeaders.signatureTimestamp, timestamp);
    done(null, payload);
  };

  await app.register(
    async (v1) => {
      v1.decorateRequest('clientApp', null);
      v1.decorateRequest('clientIp', '');
      v1.decorateRequest('clientNonce', '');
      v1.setErrorHandler((error: FastifyError | ClientApiError, request, reply) =>
        handleClientApiError(error, request, reply, countError),
      );
      v1.setNotFoundHandler((request, reply) => {
        deps.observeUnmatched?.onFinish(request, reply);
        refuseUncleanClientText(request);
        return handleClientApiNotFound(request, reply, countError);
      });
      v1.addHook('onRequest', pipeline.identify);
      v1.addHook('onSend', signResponse);
      v1.setReplySerializer(serializeClientAnswer);

      for (const call of clientCalls) {
        const runner = pipeline.runnerOf(call);
        v1.route({
          method: call.method,
          url: call.url.slice(V1_PREFIX.length),
          ...(call.bodyLimit === undefined
            ? {}
            : { bodyLimit: Math.max(config.bodyLimitBytes, call.bodyLimit) }),
          // The edge's text check (valid Unicode, no NUL) for what the JSON parser does not
          // see, where the other scopes' preValidation hook would run, without a hook.
          handler: async (request) => {
            refuseUncleanClientText(request);
            const answer = await runner.run(request.body, request);
            runner.count(answer);
            return answer;
          },
        });
      }
    },
    { prefix: V1_PREFIX },
  );

  const leanPath = createLeanClientPath({
    calls: new Map(
      clientCalls.filter((call) => call.isLean).map((call) => [call.url, pipeline.runnerOf(call)]),
    ),
    bodyLimitBytes: config.bodyLimitBytes,
    cachedApplication: pipeline.cachedApplication,
    ipOf: clientIpFinder(config.trustProxyHops),
    admit: pipeline.admitKnown,
    readJsonBody: createJsonBodyReader(app),
    serialize: serializeClientAnswer,
    sign: pipeline.sign,
    countError: (route, code) => pipeline.countFor(route)(code),
    observerFor: deps.metrics
      ? (route) => createRouteObserver(deps.metrics!.httpRequests, route)
      : null,
    log: app.log,
  });
  if (config.clientApi.isLeanPathEnabled) answerBeforeFastify(app.server, leanPath.answerLeanly);
  app.decorate('clientApiLeanPath', leanPath);
  app.decorate('signUnroutedClientAnswer', pipeline.signUnrouted);
  app.addHook('preClose', () => leanPath.close());
  return pipeline;
}
