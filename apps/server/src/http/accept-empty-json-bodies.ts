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
 * The JSON body parser of every route, and the edge check for bodies: text in is
 * valid Unicode without NUL. Bodies nesting deeper than JSON_BODY_MAX_DEPTH are refused
 * before parsing, so no handler (no write) ever sees one. Bytes that are not UTF-8 are refused before parsing. After
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
  const readJsonBody = createJsonBodyReader(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    let value: unknown;
    try {
      value = readJsonBody(body as Buffer);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, value);
  });
}

/**
 * How deeply a JSON body may nest arrays and objects. No request of ours needs more than a
 * few levels; far deeper values cost every recursive walk after the parser (validation, the
 * audit trail's redaction, PostgreSQL's jsonb) stack and time, and once turned a write that
 * had been applied into a 500. A body is measured before it is parsed, so nothing of it runs.
 */
export const JSON_BODY_MAX_DEPTH = 32;
export const JSON_BODY_TOO_DEEP = `Request body nests arrays and objects more than ${JSON_BODY_MAX_DEPTH} levels deep`;

/**
 * Whether JSON text opens more than `maxDepth` arrays and objects inside each other, brackets
 * inside strings skipped. On the client API's hot path a body has a few brackets, counted by
 * indexOf (tens of nanoseconds); only a body with more is walked character by character.
 * Malformed text is refused whatever this answers.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  // Depth needs as many opening brackets: most bodies have a handful, counted natively.
  if (!hasMoreOpeningBrackets(text, maxDepth)) return false;
  let depth = 0;
  let isInString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (isInString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) isInString = false;
    } else if (code === 0x22) {
      isInString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

const OPENING_BRACKETS = ['{', '['];

function hasMoreOpeningBrackets(text: string, count: number): boolean {
  let seen = 0;
  for (const bracket of OPENING_BRACKETS) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      seen += 1;
      if (seen > count) return true;
    }
  }
  return false;
}

/** A JSON body's bytes to its value (undefined when blank), or the 400 it deserves. */
export type JsonBodyReader = (bytes: Buffer) => unknown;

/**
 * The parsing above as a plain function, for the parser and for the lean v1 path
 * (lean-client-path.ts), which reads its bodies without Fastify: both give the same value or
 * throw the same error for the same bytes.
 */
export function createJsonBodyReader(app: FastifyInstance): JsonBodyReader {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const parse = (text: string): unknown => {
    let failure: Error | null = null;
    let parsed: unknown;
    // Fastify's parser (secure-json-parse, prototype poisoning refused) answers synchronously.
    parseJson(undefined as never, text, (error, value) => {
      failure = error;
      parsed = value;
    });
    if (failure) throw failure;
    return parsed;
  };
  return (bytes) => {
    if (!isUtf8(bytes)) throw badRequest('Request body must be valid UTF-8');
    const text = bytes.toString('utf8');
    if (text.trim() === '') return undefined;
    if (nestsDeeperThan(text, JSON_BODY_MAX_DEPTH)) throw badRequest(JSON_BODY_TOO_DEEP);
    const value = parse(text);
    if (!SUSPICIOUS_ESCAPE.test(text)) return value;
    const path = findUncleanText(value);
    if (path) throw badRequest(uncleanTextMessage(path, CLEAN_TEXT_MESSAGE));
    return value;
  };
}
