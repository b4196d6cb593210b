import { STATUS_CODES } from 'node:http';
import {
  PROBLEM_MEDIA_TYPE,
  type ErrorCode,
  type FieldProblem,
  type Problem,
} from '@latchkey/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorAnswerOf, httpStatusOf } from '../lib/errors.ts';

/** One RFC 9457 problem: `type` is about:blank, so `title` is the status's own phrase. */
interface ProblemParts {
  code: ErrorCode;
  detail: string;
  extensions?: Record<string, string> | undefined;
  fields?: FieldProblem[] | undefined;
}

function problemBody(problem: ProblemParts): Problem {
  const status = httpStatusOf(problem.code);
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: problem.detail,
    code: problem.code,
    ...problem.extensions,
    ...(problem.fields ? { fields: problem.fields } : {}),
  };
}

/** The problem an AppError answers with (what an idempotent retry must repeat). */
export function problemOf(error: AppError): Problem {
  return problemBody({
    code: error.code,
    detail: error.message,
    extensions: error.extensions,
    fields: error.fields,
  });
}

export function sendProblem(reply: FastifyReply, problem: ProblemParts): FastifyReply {
  const body = problemBody(problem);
  return reply.status(body.status).type(PROBLEM_MEDIA_TYPE).send(body);
}

/**
 * A scope whose errors are problem details (`errorAnswerOf`'s answers, with Retry-After on a
 * 503), for machines of other services; its unknown paths stay the parent's.
 */
export function answerErrorsAsProblems(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const answer = errorAnswerOf(error);
    if (answer.isUnexpected) request.log.error({ err: error }, 'unhandled error');
    // A verb's own 503 (another service did not answer) was logged by the verb.
    if (answer.code === 'UNAVAILABLE' && !(error instanceof AppError)) {
      request.log.warn({ err: error }, 'database unavailable');
    }
    if (answer.retryAfterSeconds) reply.header('retry-after', String(answer.retryAfterSeconds));
    return sendProblem(reply, {
      code: answer.code,
      detail: answer.message,
      extensions: answer.extensions,
      fields: answer.fields,
    });
  });
}

/**
 * The management API's one error shape, for its whole scope: the owner API's answers
 * (`errorAnswerOf`), written as problems. Unknown paths under the prefix are problems
 * too, so a script never has to parse the console's 404.
 */
export function answerWithProblems(scope: FastifyInstance): void {
  answerErrorsAsProblems(scope);
  scope.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendProblem(reply, {
      code: 'NOT_FOUND',
      detail: `No management API route ${request.method} ${request.url.split('?')[0]}`,
    }),
  );
}
