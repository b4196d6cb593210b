import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { clientApiHeaders } from '@latchkey/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { JsonBodyReader } from '../../http/accept-empty-json-bodies.ts';
import { requestIdFrom } from '../../http/request-id.ts';
import type { RouteObserver } from '../../metrics/observe-http-requests.ts';
import { clientErrorAnswerOf } from './client-api-error.ts';
import type { ClientApplication } from './client-app-cache.ts';
import type { ClientCallRunner } from './client-call-pipeline.ts';
import type { ClientCallRequest } from './client-caller.ts';
import { nonceOf } from './client-nonce.ts';

/**
 * The lean path's request as the pipeline reads it. The lean calls (verify, heartbeat) build
 * no URLs, so the origin, which would need the proxy rules Fastify applies, is not offered:
 * a lean call that read it would fail the differential test (lean-client-path.test.ts).
 */
class LeanRequest implements ClientCallRequest {
  constructor(
    public clientApp: ClientApplication | null,
    public clientIp: string,
    public log: FastifyBaseLogger,
    public headers: IncomingHttpHeaders,
  ) {}
  get protocol(): string {
    throw new Error('the lean path answers no call that needs its origin');
  }
  get host(): string {
    throw new Error('the lean path answers no call that needs its origin');
  }
}

export interface LeanPathOptions {
  /**
   * By exact URL (`/api/v1/verify`), which is also the route's pattern in the metrics' labels
   * and the error counter: a query string or another spelling goes to Fastify.
   */
  calls: ReadonlyMap<string, ClientCallRunner>;
  bodyLimitBytes: number;
  /** The API key's application when it is cached; a miss goes to Fastify, which loads it. */
  cachedApplication(apiKey: string): ClientApplication | undefined;
  /** The client's address, as Fastify's trustProxy setting gives it (normalised). */
  ipOf(request: IncomingMessage): string;
  /** Spends the request budgets, as the Fastify scope's onRequest hook does (the pipeline's). */
  admit(application: ClientApplication, ipAddress: string, done: (refusal?: Error) => void): void;
  readJsonBody: JsonBodyReader;
  /** The v1 scope's own serializer (answers made once are not serialized again). */
  serialize(answer: object): string;
  /** The v1 scope's signature, with its timestamp, over `{timestamp}.{nonce}.{payload}`. */
  sign(
    application: ClientApplication,
    nonce: string,
    payload: string,
  ): { signature: string; timestamp: string };
  /** Counts an error answer's `code`, as the scope's error handler does. */
  countError(route: string, code: string): void;
  /** Times each call as the HTTP metrics time a Fastify route; null without metrics. */
  observerFor: ((route: string) => RouteObserver) | null;
  log: FastifyBaseLogger;
}

const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
const LEVELS_LOGGING_REQUESTS = new Set(['info', 'debug', 'trace']);

/**
 * The client API's hot calls (verify, heartbeat) answered straight from Node's `request`
 * event, without Fastify's per-request lifecycle (that lifecycle cost verify more
 * CPU than all of our own code). Everything that makes the answer is what the Fastify route
 * uses: the same body reader, the same check from the contracts, the same verb, the same
 * serializer, signature, counters and error mapping. The test `lean-client-path.test.ts`
 * sends the same requests both ways and compares every answer byte for byte.
 *
 * Only the common request is taken: POST to the exact path, a JSON body of stated length
 * within the limit, an API key whose application is in memory, a valid or absent nonce.
 * Anything else (a cache miss, a query string, a chunked or oversized body, another content
 * type, a bad nonce, a server closing) is handed to Fastify untouched, so every other answer
 * stays where it was made before. Returns whether it took the request.
 */
export function createLeanClientPath(options: LeanPathOptions) {
  const { calls, bodyLimitBytes, log } = options;
  const observers = new Map<string, RouteObserver>();
  if (options.observerFor) {
    for (const route of calls.keys()) observers.set(route, options.observerFor(route));
  }
  let isClosing = false;
  let answeredCount = 0;

  const answerLeanly = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (isClosing || request.method !== 'POST') return false;
    const route = request.url ?? '';
    const call = calls.get(route);
    if (!call) return false;
    const { headers } = request;
    if (!JSON_TYPES.has(headers['content-type'] ?? '')) return false;
    if (headers['transfer-encoding'] !== undefined) return false;
    const length = Number(headers['content-length']);
    if (!(length > 0 && length <= bodyLimitBytes)) return false;
    const apiKey = headers[clientApiHeaders.apiKey];
    if (typeof apiKey !== 'string') return false;
    const application = options.cachedApplication(apiKey);
    if (!application) return false;
    const nonce = nonceOf(headers[clientApiHeaders.nonce]);
    if (nonce === null) return false;

    answeredCount += 1;
    // Timed only for the metrics or the request log (a clock read per request otherwise).
    const isTimed = observers.size > 0 || LEVELS_LOGGING_REQUESTS.has(log.level);
    const startedAt = isTimed ? performance.now() : 0;
    const requestId = requestIdFrom(headers['x-request-id']);
    const callRequest = new LeanRequest(application, options.ipOf(request), log, headers);

    const send = (status: number, payload: string, retryAfterSeconds: number | null) => {
      const { signature, timestamp } = options.sign(application, nonce, payload);
      const answerHeaders: Record<string, string | number> = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(payload),
        'x-request-id': requestId,
        [clientApiHeaders.signature]: signature,
        [clientApiHeaders.signatureTimestamp]: timestamp,
      };
      if (retryAfterSeconds !== null) answerHeaders['retry-after'] = String(retryAfterSeconds);
      response.writeHead(status, answerHeaders);
      response.end(payload);
      if (!isTimed) return;
      const elapsedMs = performance.now() - startedAt;
      observers.get(route)?.('POST', status, elapsedMs);
      // Fastify logs each request at info; so does this path (a busy server sets LOG_LEVEL=warn).
      if (LEVELS_LOGGING_REQUESTS.has(log.level)) {
        log.info(
          {
            reqId: requestId,
            req: { method: 'POST', url: route },
            res: { statusCode: status },
            responseTime: elapsedMs,
          },
          'request completed',
        );
      }
    };
    const refuse = (error: unknown) => {
      const answer = clientErrorAnswerOf(error as Error);
      if (answer.isUnexpected) {
        log.error({ err: error, reqId: requestId }, 'unhandled client API error');
      } else if (answer.status === 503) {
        log.warn({ err: error, reqId: requestId }, 'database unavailable');
      }
      options.countError(route, answer.body.code);
      send(answer.status, JSON.stringify(answer.body), answer.retryAfterSeconds);
    };

    options.admit(application, callRequest.clientIp, (refusal) => {
      if (refusal) return refuse(refusal);
      readBody(request, length, (bytes) => {
        let answering: Promise<object>;
        try {
          answering = call.run(options.readJsonBody(bytes), callRequest);
        } catch (error) {
          return refuse(error);
        }
        answering
          .then((answer) => {
            call.count(answer);
            send(200, options.serialize(answer), null);
          }, refuse)
          .catch((error: unknown) => {
            // Only the send itself can fail here (the answer was made): nothing left to say.
            log.error({ err: error, reqId: requestId }, 'client API answer not sent');
            response.destroy();
          });
      });
    });
    return true;
  };

  return {
    answerLeanly,
    /** How many requests this path has taken (tests check it is the one answering). */
    get answeredCount() {
      return answeredCount;
    },
    /** From now on every request goes to Fastify, which answers 503 while the app closes. */
    close() {
      isClosing = true;
    },
  };
}

export type LeanClientPath = ReturnType<typeof createLeanClientPath>;

/**
 * The body, once all its stated bytes have arrived. A client that goes away mid-body gets no
 * answer (as with Fastify); Node's HTTP parser holds the body to its Content-Length.
 */
export function readBody(request: IncomingMessage, length: number, done: (bytes: Buffer) => void) {
  const chunks: Buffer[] = [];
  let received = 0;
  request.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  });
  request.once('end', () => {
    if (received !== length) return;
    done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
  });
}

/**
 * Puts the lean path in front of Fastify's own `request` listener on the server it listens
 * with. `inject` (tests) calls Fastify's handler directly and so never meets the lean path:
 * the tests that must cover it go over HTTP.
 */
export function answerBeforeFastify(
  server: Server,
  answerLeanly: (request: IncomingMessage, response: ServerResponse) => boolean,
): void {
  const fastifyListeners = server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  if (fastifyListeners.length !== 1) {
    throw new Error(`expected Fastify's one request listener, found ${fastifyListeners.length}`);
  }
  const [fastify] = fastifyListeners as [
    (request: IncomingMessage, response: ServerResponse) => void,
  ];
  server.removeListener('request', fastify);
  server.on('request', (request, response) => {
    if (!answerLeanly(request, response)) fastify(request, response);
  });
}
