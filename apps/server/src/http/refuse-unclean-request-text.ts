import { CLEAN_TEXT_MESSAGE } from '@latchkey/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors.ts';
import { findUncleanText, uncleanTextMessage } from './find-unclean-text.ts';

/**
 * The edge check that text in is valid Unicode without NUL, for what the JSON body parser
 * does not see: path parameters, the query string (a `%00` decodes to NUL) and a body of
 * another content type (text/plain).
 * It runs before any route validates, for every route of every scope; each scope's error
 * handler shapes the 400 (the client API's signed v1 error, the owner API's BAD_REQUEST).
 * On the client API's hot path params and query are empty objects, so the walk is nearly free.
 */
export function refuseUncleanRequestText(app: FastifyInstance): void {
  app.addHook('preValidation', checkRequestText);
}

function checkRequestText(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  const problem =
    problemIn('params', request.params) ??
    problemIn('query', request.query) ??
    (typeof request.body === 'string' ? problemIn('body', request.body) : null);
  done(problem ? badRequest(problem) : undefined);
}

/**
 * The same check for the client API, called in its handlers instead of a hook. Its
 * routes have no path parameters, and a URL without `?` has an empty query: the common
 * request costs one `includes` and one `typeof`.
 */
export function refuseUncleanClientText(request: FastifyRequest): void {
  if (!request.url.includes('?') && typeof request.body !== 'string') return;
  const problem =
    problemIn('query', request.query) ??
    (typeof request.body === 'string' ? problemIn('body', request.body) : null);
  if (problem) throw badRequest(problem);
}

function problemIn(where: string, value: unknown): string | null {
  const path = findUncleanText(value);
  return path ? uncleanTextMessage(path.length > 0 ? path : [where], CLEAN_TEXT_MESSAGE) : null;
}
