import { MANAGEMENT_API_PREFIX, type ErrorCode } from '@latchkey/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, httpStatusOf } from '../lib/errors.ts';
import { sendProblem } from './problem-details.ts';

const codeByStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * The one place errors become HTTP responses: AppError by its code, Fastify's own client
 * errors (malformed JSON, oversized bodies) by their status, anything else is a logged 500
 * whose details never reach the body.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ message: error.message, code: error.code });
    }
    const status = error.statusCode ?? 500;
    const code = codeByStatus[status];
    if (status < 500 && code) {
      return reply.status(status).send({ message: clientMessage(error, status), code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(httpStatusOf('INTERNAL'))
      .send({ message: 'Internal server error', code: 'INTERNAL' });
  });
}

function clientMessage(error: FastifyError, status: number): string {
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return 'Malformed JSON in request body';
  }
  if (status === 413) return 'Request body is too large';
  return error.message;
}

const frameworkErrorMessages: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid percent-encoded UTF-8',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
};

/**
 * Errors Fastify raises while routing, before any scope's error handler can see them: a path
 * parameter that is not valid percent-encoded UTF-8, or longer than the router allows. They
 * get a 400 in the documented shapes instead of Fastify's own. Only routes with path
 * parameters raise them, and the client API has none, so its v1-shaped branch (unsigned: the
 * application is not known yet) is a guard for routes to come. The management API's are
 * problems, as all its answers.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const message = frameworkErrorMessages[error.code];
  if (!message) {
    request.log.error({ err: error }, 'framework error');
    void reply.status(500).send({ message: 'Internal server error', code: 'INTERNAL' });
    return;
  }
  if (request.url.startsWith(`${MANAGEMENT_API_PREFIX}/`)) {
    void sendProblem(reply, { code: 'BAD_REQUEST', detail: message });
    return;
  }
  const isClientApi = request.url === '/api/v1' || request.url.startsWith('/api/v1/');
  void reply
    .status(400)
    .send(
      isClientApi
        ? { success: false, code: 'INVALID_REQUEST', message }
        : { message, code: 'BAD_REQUEST' },
    );
}
