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

/** True when the statement failed on the given unique constraint or index (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const driverError = findDriverError(error);
  return driverError?.code === '23505' && driverError.constraint === constraint;
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
  const driverError = findDriverError(error);
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
