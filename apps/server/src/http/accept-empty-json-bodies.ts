import { isUtf8 } from 'node:buffer';
import { CLEAN_TEXT_MESSAGE } from '@latchkey/contracts';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../lib/errors.ts';
import { findUncleanText, uncleanTextMessage } from './find-unclean-text.ts';

/**
 * `\u0000` or a `\uD800`-`\uDFFF` escape, in any case. It may also match an escaped
 * backslash followed by `u0000` (`\\u0000`); that only costs a walk that finds nothing.
 */
const SUSPICIOUS_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;

/**
 * The JSON body parser of every route, and the edge of guide rule 12 for bodies: text in is
 * valid Unicode without NUL. Bytes that are not UTF-8 are refused before parsing. After
 * parsing, the value is walked only when the raw text holds a NUL or surrogate escape: valid
 * UTF-8 cannot encode a surrogate, and JSON forbids raw control characters inside and
 * outside strings, so a lone surrogate or a NUL can only come from such an escape. That keeps
 * the check to one regular-expression scan on the client API's hot path (verify, heartbeat).
 *
 * Many HTTP clients send `Content-Type: application/json` on body-less POSTs (pause,
 * unpause, reset-hwid). Fastify's parser refuses an empty JSON body; we treat it as no body
 * and keep Fastify's own (prototype-poisoning-safe) parser for everything else.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(badRequest('Request body must be valid UTF-8'), undefined);
      return;
    }
    const text = bytes.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (!SUSPICIOUS_ESCAPE.test(text)) {
      parseJson(request, text, done);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const path = findUncleanText(value);
      if (path) return done(badRequest(uncleanTextMessage(path, CLEAN_TEXT_MESSAGE)), undefined);
      done(null, value);
    });
  });
}
