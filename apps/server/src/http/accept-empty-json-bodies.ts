import type { FastifyInstance } from 'fastify';

/**
 * Many HTTP clients send `Content-Type: application/json` on body-less POSTs (pause,
 * unpause, reset-hwid). Fastify's parser refuses an empty JSON body; we treat it as no body
 * and keep Fastify's own (prototype-poisoning-safe) parser for everything else.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
