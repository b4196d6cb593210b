import { and, eq, inArray } from 'drizzle-orm';
import { VARIABLE_NAME_TAKEN, VARIABLE_NOT_FOUND } from '@latchkey/contracts';
import { appVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { isUniqueViolation } from '../../lib/database-errors.ts';
import type { AppError } from '../../lib/errors.ts';
import { notFound, refusedField } from '../../lib/errors.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';

export interface ApplicationVariableIds {
  applicationId: number;
  variableId: string;
}

/**
 * The condition every statement on one application variable carries: the variable, in that
 * application, and that application belongs to the signed-in owner. A variable id of another
 * application (even the same owner's) matches nothing.
 */
export function ownedApplicationVariableWhere(ctx: OwnerContext, ids: ApplicationVariableIds) {
  return and(
    eq(appVariables.id, ids.variableId),
    eq(appVariables.applicationId, ids.applicationId),
    inArray(appVariables.applicationId, ownedApplicationIds(ctx, ids.applicationId)),
  );
}

/** The 404 to give when a scoped statement matched nothing: which of the two is missing. */
export async function applicationVariableNotFound(
  ctx: OwnerContext,
  ids: ApplicationVariableIds,
): Promise<AppError> {
  // Throws 'Application not found' itself when the application is not the owner's.
  await loadOwnedApplication({ ctx, input: { applicationId: ids.applicationId } });
  return notFound(VARIABLE_NOT_FOUND);
}

const VARIABLE_NAME_INDEX = 'app_variables_app_name_idx';

/** A failed write as the owner should see it: a name the application already has is a 409. */
export function toApplicationVariableWriteError(error: unknown): unknown {
  if (isUniqueViolation(error, VARIABLE_NAME_INDEX)) {
    return refusedField('CONFLICT', 'name', VARIABLE_NAME_TAKEN);
  }
  return error;
}
