import type { ErrorCode, FieldProblem } from '@latchkey/contracts';
import { isDatabaseUnavailable } from './database-errors.ts';

const statusByCode: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  TOKEN_INVALID: 401,
  IP_NOT_ALLOWED: 403,
  SCOPE_MISSING: 403,
  PERMISSION_MISSING: 403,
  IDEMPOTENCY_KEY_REUSED: 422,
  LINK_INVALID: 410,
};

/** The one error type of the owner API; its code decides the HTTP status in one place. */
export class AppError extends Error {
  readonly code: ErrorCode;

  /** Members a problem+json answer adds beside `code` (the missing scope, for example). */
  readonly extensions: Record<string, string> | undefined;

  /** A refused request body's fields, each with its problem, for a form to mark. */
  readonly fields: FieldProblem[] | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    extensions?: Record<string, string>,
    fields?: FieldProblem[],
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.extensions = extensions;
    this.fields = fields;
  }

  get statusCode(): number {
    return statusByCode[this.code];
  }
}

export function httpStatusOf(code: ErrorCode): number {
  return statusByCode[code];
}

export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
/**
 * A refusal about one field of the body (a name taken, a URL not allowed): a form marks that
 * field with `message`. `message` stays the answer's message as well.
 */
export const refusedField = (code: ErrorCode, field: string, message: string) =>
  new AppError(code, message, undefined, [{ field, message }]);
export const forbidden = (message = 'Forbidden') => new AppError('FORBIDDEN', message);
export const unauthenticated = (message = 'Not authenticated') =>
  new AppError('UNAUTHENTICATED', message);

/** Fastify's own client errors by status (malformed JSON, oversized bodies and the like). */
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

/** What an error answers, whatever the shape it is written in (owner JSON or problem+json). */
export interface ErrorAnswer {
  code: ErrorCode;
  message: string;
  extensions?: Record<string, string> | undefined;
  fields?: FieldProblem[] | undefined;
  /** Not the client's fault: logged, and answered without its details. */
  isUnexpected: boolean;
  /** Sent as Retry-After: when the request may succeed if repeated. */
  retryAfterSeconds?: number;
}

/**
 * How long a request refused for a lost database connection is told to wait: a terminated
 * backend is replaced on the next statement, and a PostgreSQL restart or failover takes seconds.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database is unavailable for a moment. Try again in a few seconds.';

/**
 * The one mapping from a thrown error to its answer, for every scope's error handler: AppError
 * by its code, a lost or unreachable database as a 503 to retry, Fastify's client errors by
 * their status, anything else a 500 whose message never reaches the body.
 */
export function errorAnswerOf(error: {
  statusCode?: number | undefined;
  code?: string;
  message: string;
}): ErrorAnswer {
  if (error instanceof AppError) {
    return {
      code: error.code,
      message: error.message,
      extensions: error.extensions,
      fields: error.fields,
      isUnexpected: false,
      // A 503 always says when to try again, whatever was unavailable.
      ...(error.code === 'UNAVAILABLE' ? { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS } : {}),
    };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      code: 'UNAVAILABLE',
      message: DATABASE_UNAVAILABLE_MESSAGE,
      isUnexpected: false,
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  const status = error.statusCode ?? 500;
  const code = codeByStatus[status];
  if (status >= 500 || !code) {
    return { code: 'INTERNAL', message: 'Internal server error', isUnexpected: true };
  }
  const message =
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
      ? 'Malformed JSON in request body'
      : status === 413
        ? 'Request body is too large'
        : error.message;
  return { code, message, isUnexpected: false };
}
