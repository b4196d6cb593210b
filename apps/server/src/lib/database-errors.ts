/** The parts of a PostgreSQL error worth acting on (both drivers report these fields). */
interface DriverError {
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
  message?: unknown;
}

function findDriverError(error: unknown): DriverError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    if (typeof (current as DriverError).code === 'string') return current as DriverError;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * The error at the end of the `cause` chain: the driver's own (a lost connection has no SQLSTATE)
 * rather than the ORM's wrapper, whose message lists the statement's parameters.
 */
function innermostCause(error: unknown): DriverError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (!cause || typeof cause !== 'object') break;
    current = cause;
  }
  return current !== error && current && typeof current === 'object'
    ? (current as DriverError)
    : null;
}

/** True when the statement failed on the given unique constraint or index (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const driverError = findDriverError(error);
  return driverError?.code === '23505' && driverError.constraint === constraint;
}

/** True when a row broke the given CHECK constraint (SQLSTATE 23514). */
export function isCheckViolation(error: unknown, constraint: string): boolean {
  const driverError = findDriverError(error);
  return driverError?.code === '23514' && driverError.constraint === constraint;
}

/** True when a row still referenced through `constraint` was deleted (SQLSTATE 23503). */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const driverError = findDriverError(error);
  return driverError?.code === '23503' && driverError.constraint === constraint;
}

/**
 * Drizzle puts every query parameter into its error message and PostgreSQL puts the failing
 * row into `detail`; for statements that carry secrets (password hashes, encrypted keys) the
 * error that reaches the log must carry neither.
 */
export function redactDatabaseError(error: unknown): Error {
  // Not from a statement at all (a bug in the verb): nothing to redact, and its message is
  // what the log needs. The ORM's own errors begin so and list the parameters.
  if (
    error instanceof Error &&
    findDriverError(error) === null &&
    innermostCause(error) === null &&
    !error.message.startsWith('Failed query')
  ) {
    return error;
  }
  const driverError =
    findDriverError(error) ??
    innermostCause(error) ??
    (isDatabaseUnavailable(error) ? { message: 'Connection terminated' } : null);
  const redacted = new Error(
    `Database statement failed: ${String(driverError?.message ?? 'unknown error')}`,
  );
  Object.assign(redacted, {
    code: driverError?.code,
    constraint: driverError?.constraint,
    table: driverError?.table,
  });
  return redacted;
}

/**
 * SQLSTATEs that say the database, not the statement, failed: class 08 (connection exception),
 * 57P01–57P03 (terminated by an administrator, a crash, or a server not accepting connections
 * yet: a restart or failover), 53300 (too many connections).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
/** What node-postgres and the socket say when a connection cannot be made or was cut. */
const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|not queryable|Client was closed|Connection ended|timeout exceeded when trying to connect|Cannot use a pool after calling end/;

/**
 * True when an error means the database could not be reached or the connection was lost (a
 * restart, a failover, a terminated backend), not that the statement was wrong: the request
 * may succeed if repeated shortly, so it is answered 503 with Retry-After, not 500. Walks the
 * `cause` chain, as the ORM wraps the driver's errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SYSTEM_CODES.has(code))
    ) {
      return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
