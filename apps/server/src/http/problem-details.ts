import { STATUS_CODES } from 'node:http';
import { PROBLEM_MEDIA_TYPE, type ErrorCode, type Problem } from '@latchkey/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, httpStatusOf } from '../lib/errors.ts';

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

/** One RFC 9457 problem: `type` is about:blank, so `title` is the status's own phrase. */
function problemBody(problem: {
  code: ErrorCode;
  detail: string;
  extensions?: Record<string, string> | undefined;
}): Problem {
  const status = httpStatusOf(problem.code);
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: problem.detail,
    code: problem.code,
    ...problem.extensions,
  };
}

/** The problem an AppError answers with (what an idempotent retry must repeat). */
export function problemOf(error: AppError): Problem {
  return problemBody({ code: error.code, detail: error.message, extensions: error.extensions });
}

export function sendProblem(
  reply: FastifyReply,
  problem: { code: ErrorCode; detail: string; extensions?: Record<string, string> | undefined },
): FastifyReply {
  const body = problemBody(problem);
  return reply.status(body.status).type(PROBLEM_MEDIA_TYPE).send(body);
}

/**
 * The management API's one error shape (issue 27), for its whole scope: AppError by its code,
 * Fastify's client errors (malformed JSON, a body too large) by their status, and anything else
 * a logged 500 whose details never reach the body. Unknown paths under the prefix are problems
 * too, so a script never has to parse the console's 404.
 */
export function answerWithProblems(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return sendProblem(reply, {
        code: error.code,
        detail: error.message,
        extensions: error.extensions,
      });
    }
    const status = error.statusCode ?? 500;
    const code = codeByStatus[status];
    if (status < 500 && code) {
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'Malformed JSON in request body'
          : status === 413
            ? 'Request body is too large'
            : error.message;
      return sendProblem(reply, { code, detail });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, { code: 'INTERNAL', detail: 'Internal server error' });
  });
  scope.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendProblem(reply, {
      code: 'NOT_FOUND',
      detail: `No management API route ${request.method} ${request.url.split('?')[0]}`,
    }),
  );
}
