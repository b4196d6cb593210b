import { USERNAME_TAKEN } from '@latchkey/contracts';
import { isUniqueViolation, redactDatabaseError } from '../../lib/database-errors.ts';
import { AppError, refusedField } from '../../lib/errors.ts';

const USERNAME_INDEX = 'app_users_application_username_idx';

/**
 * A failed write as the owner should see it: a taken username is a 409; anything else is
 * rethrown without the statement's parameters, which can include a password hash.
 */
export function toAppUserWriteError(error: unknown): Error {
  if (error instanceof AppError) return error;
  if (isUniqueViolation(error, USERNAME_INDEX)) {
    return refusedField('CONFLICT', 'username', USERNAME_TAKEN);
  }
  return redactDatabaseError(error);
}
