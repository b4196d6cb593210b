import {
  CLIENT_API_SERVER_ERROR_CODE,
  type ClientApiCode,
  type ClientErrorResponse,
} from '@latchkey/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { isDatabaseUnavailable } from '../../lib/database-errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../../lib/errors.ts';

type HttpErrorCode = Extract<ClientApiCode, 'INVALID_REQUEST' | 'INVALID_API_KEY' | 'RATE_LIMITED'>;

/**
 * The client API's HTTP errors: a malformed request (400), a missing or unknown API key
 * (401) or a rate limit (429). Every other outcome is data (HTTP 200), never thrown.
 */
export class ClientApiError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 429,
    readonly code: HttpErrorCode,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ClientApiError';
  }
}

export const invalidRequest = (message: string) =>
  new ClientApiError(400, 'INVALID_REQUEST', message);

export const invalidApiKey = (isMissing: boolean) =>
  new ClientApiError(
    401,
    'INVALID_API_KEY',
    isMissing ? 'Missing API key: send it in the X-API-Key header' : 'Invalid API key',
  );

export const rateLimited = (retryAfterSeconds: number, what = 'Too many requests') =>
  new ClientApiError(
    429,
    'RATE_LIMITED',
    `${what}. Try again in ${retryAfterSeconds} seconds.`,
    retryAfterSeconds,
  );

/** Validates a request body against a contract schema; the first problem is the 400's message. */
export function parseClientInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw invalidRequest(issue ? `${field}${issue.message}` : 'Invalid request');
}

const errorBody = (code: ClientErrorResponse['code'], message: string): ClientErrorResponse => ({
  success: false,
  code,
  message,
});

/** Told the `code` of each error answer as it is sent (metrics). */
export type OnClientErrorAnswer = (
  request: FastifyRequest,
  code: ClientErrorResponse['code'],
) => void;

/** What an /api/v1 error answers: its status, its v1 body and its Retry-After. */
export interface ClientErrorAnswer {
  status: number;
  body: ClientErrorResponse;
  retryAfterSeconds: number | null;
  /** A 5xx: its details belong in the log. */
  isUnexpected: boolean;
}

/**
 * Every /api/v1 error has the v1 shape `{ success: false, code, message }`, whatever its
 * status: our own 400/401/429, Fastify's malformed-JSON 400 and oversized-body 413, and any
 * other client error as a 400; a lost or unreachable database is a 503 with Retry-After (the
 * program may retry), anything else a 500. A 5xx keeps its details in the log. The one mapping, for the
 * scope's error handler and for the lean path (lean-client-path.ts).
 */
export function clientErrorAnswerOf(error: {
  statusCode?: number | undefined;
  code?: string | undefined;
  message: string;
}): ClientErrorAnswer {
  const answer = (status: number, code: ClientErrorResponse['code'], message: string) => ({
    status,
    body: errorBody(code, message),
    retryAfterSeconds: null,
    isUnexpected: false,
  });
  if (error instanceof ClientApiError) {
    return {
      ...answer(error.statusCode, error.code, error.message),
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      ...answer(503, CLIENT_API_SERVER_ERROR_CODE, DATABASE_UNAVAILABLE_MESSAGE),
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return answer(413, 'INVALID_REQUEST', 'Request body is too large');
  if (status >= 400 && status < 500) {
    const isMalformedJson =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError;
    return answer(
      400,
      'INVALID_REQUEST',
      isMalformedJson ? 'Malformed JSON in request body' : error.message,
    );
  }
  return {
    ...answer(500, CLIENT_API_SERVER_ERROR_CODE, 'Internal server error'),
    isUnexpected: true,
  };
}

/** The /api/v1 scope's error handler: the answer above, counted, with its Retry-After. */
export function handleClientApiError(
  error: FastifyError | ClientApiError,
  request: FastifyRequest,
  reply: FastifyReply,
  onAnswer?: OnClientErrorAnswer,
) {
  const answer = clientErrorAnswerOf(error);
  if (answer.isUnexpected) request.log.error({ err: error }, 'unhandled client API error');
  else if (answer.status === 503) request.log.warn({ err: error }, 'database unavailable');
  if (answer.retryAfterSeconds !== null) {
    reply.header('retry-after', String(answer.retryAfterSeconds));
  }
  onAnswer?.(request, answer.body.code);
  return reply.status(answer.status).send(answer.body);
}

/** An unknown /api/v1 path (or method): 404 in the v1 shape, signed like every v1 answer. */
export function handleClientApiNotFound(
  request: FastifyRequest,
  reply: FastifyReply,
  onAnswer?: OnClientErrorAnswer,
) {
  const path = request.url.split('?')[0] ?? '';
  const body = errorBody('INVALID_REQUEST', `Route ${request.method} ${path} not found`);
  onAnswer?.(request, body.code);
  return reply.status(404).send(body);
}
