import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import { requestIdFrom } from '../../http/request-id.ts';
import { answerBeforeFastify, readBody } from '../client-api/index.ts';
import {
  keyauthErrorAnswer,
  type KeyauthExchange,
  type KeyauthHttpAnswer,
  type KeyauthVersion,
} from './keyauth-answerer.ts';

/** Form fields are short; a `setvar` value is the longest (16 KB, form-encoded up to ×3). */
export const KEYAUTH_BODY_LIMIT_BYTES = 64 * 1024;

const VERSION_OF_URL = new Map<string, KeyauthVersion>([
  ['/api/1.2/', '1.2'],
  ['/api/1.2', '1.2'],
  ['/api/1.3/', '1.3'],
  ['/api/1.3', '1.3'],
]);
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The first value of a proxy's header (`a, b` when several proxies added one). */
const firstOf = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;

/**
 * KeyAuth's form POSTs, answered from Node's `request` event without Fastify's per-request
 * lifecycle, as v1's lean path answers verify and heartbeat. The answer is made by the same
 * answerer as the Fastify routes'; only the common request is taken (POST to the exact path,
 * a form body of stated length within the limit, no query string); anything else goes to
 * Fastify untouched. The origin a link is built on is the one Fastify would see: the nearest
 * trusted proxy's X-Forwarded-Proto and -Host where TRUST_PROXY_HOPS trusts one.
 */
export function answerKeyauthBeforeFastify(
  server: Server,
  options: {
    answer: (exchange: KeyauthExchange) => Promise<KeyauthHttpAnswer>;
    ipOf: (request: IncomingMessage) => string;
    trustProxyHops: number;
    log: FastifyBaseLogger;
  },
): { close(): void; readonly answeredCount: number } {
  let isClosing = false;
  let answeredCount = 0;
  const { log } = options;

  const originOf = (request: IncomingMessage) => () => {
    const trusted = options.trustProxyHops > 0;
    const protocol =
      (trusted && firstOf(request.headers['x-forwarded-proto'])) ||
      ((request.socket as TLSSocket).encrypted ? 'https' : 'http');
    const host =
      (trusted && firstOf(request.headers['x-forwarded-host'])) || request.headers.host || '';
    return `${protocol}://${host}`;
  };

  const answerRaw = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (isClosing || request.method !== 'POST') return false;
    const version = VERSION_OF_URL.get(request.url ?? '');
    if (!version) return false;
    const { headers } = request;
    if (!(headers['content-type'] ?? '').toLowerCase().startsWith(FORM_TYPE)) return false;
    if (headers['transfer-encoding'] !== undefined) return false;
    const length = Number(headers['content-length']);
    if (!(length > 0 && length <= KEYAUTH_BODY_LIMIT_BYTES)) return false;

    answeredCount += 1;
    const requestId = requestIdFrom(headers['x-request-id']);
    const write = (status: number, answered: KeyauthHttpAnswer) => {
      response.writeHead(status, {
        ...answered.headers,
        'content-length': Buffer.byteLength(answered.body),
        'x-request-id': requestId,
        'cache-control': 'no-store',
      });
      response.end(answered.body);
    };
    readBody(request, length, (bytes) => {
      const fields = Object.fromEntries(new URLSearchParams(bytes.toString('utf8')));
      options
        .answer({
          version,
          fields,
          ipAddress: options.ipOf(request),
          log,
          headers,
          origin: originOf(request),
        })
        .then(
          (answered) => write(200, answered),
          (error: unknown) => {
            const failed = keyauthErrorAnswer(error, log.child({ reqId: requestId }));
            write(failed.status, failed);
          },
        )
        .catch((error: unknown) => {
          log.error({ err: error, reqId: requestId }, 'KeyAuth answer not sent');
          response.destroy();
        });
    });
    return true;
  };

  answerBeforeFastify(server, answerRaw);
  return {
    /** From now on every request goes to Fastify, which answers 503 while the app closes. */
    close() {
      isClosing = true;
    },
    /** How many requests this path has taken (tests check it is the one answering). */
    get answeredCount() {
      return answeredCount;
    },
  };
}
