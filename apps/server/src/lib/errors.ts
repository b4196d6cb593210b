import type { ErrorCode } from '@latchkey/contracts';

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
  TOKEN_INVALID: 401,
  IP_NOT_ALLOWED: 403,
  SCOPE_MISSING: 403,
  PERMISSION_MISSING: 403,
  IDEMPOTENCY_KEY_REUSED: 422,
};

/** The one error type of the owner API; its code decides the HTTP status in one place. */
export class AppError extends Error {
  readonly code: ErrorCode;

  /** Members a problem+json answer adds beside `code` (the missing scope, for example). */
  readonly extensions: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, extensions?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.extensions = extensions;
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
export const forbidden = (message = 'Forbidden') => new AppError('FORBIDDEN', message);
export const unauthenticated = (message = 'Not authenticated') =>
  new AppError('UNAUTHENTICATED', message);
