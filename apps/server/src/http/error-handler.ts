import { clientApiHeaders, MANAGEMENT_API_PREFIX } from '@latchkey/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorAnswerOf, httpStatusOf } from '../lib/errors.ts';
import { sendProblem } from './problem-details.ts';

/**
 * The one place errors become the owner API's responses (`errorAnswerOf` decides what each
 * error answers; the management API writes the same answers as problems).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const answer = errorAnswerOf(error);
    if (answer.isUnexpected) request.log.error({ err: error }, 'unhandled error');
    // A verb's own 503 (another service did not answer) was logged by the verb.
    if (answer.code === 'UNAVAILABLE' && !(error instanceof AppError)) {
      request.log.warn({ err: error }, 'database unavailable');
    }
    if (answer.retryAfterSeconds) reply.header('retry-after', String(answer.retryAfterSeconds));
    return reply.status(httpStatusOf(answer.code)).send({
      message: answer.message,
      code: answer.code,
      ...(answer.fields ? { fields: answer.fields } : {}),
    });
  });
}

const frameworkErrorMessages: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid percent-encoded UTF-8',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
};

/**
 * Errors Fastify raises while routing, before any scope's error handler can see them: a path
 * parameter that is not valid percent-encoded UTF-8, or longer than the router allows. They
 * get a 400 in the documented shapes instead of Fastify's own. The management API's are
 * problems, as all its answers; the client API's are v1-shaped and signed like every v1 answer
 * (with the application's key when it is in memory: the v1 scope has not identified it).
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
  const sign = request.server.signUnroutedClientAnswer;
  if (isClientApi && sign) {
    const body = JSON.stringify({ success: false, code: 'INVALID_REQUEST', message });
    const { signature, timestamp } = sign(request.headers, body);
    void reply
      .status(400)
      .header('content-type', 'application/json; charset=utf-8')
      .header(clientApiHeaders.signature, signature)
      .header(clientApiHeaders.signatureTimestamp, timestamp)
      .send(body);
    return;
  }
  void reply
    .status(400)
    .send(
      isClientApi
        ? { success: false, code: 'INVALID_REQUEST', message }
        : { message, code: 'BAD_REQUEST' },
    );
}
