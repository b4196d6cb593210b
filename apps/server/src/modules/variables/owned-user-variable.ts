import { and, eq } from 'drizzle-orm';
import { VARIABLE_NOT_FOUND } from '@latchkey/contracts';
import { appUsers, appUserVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound, type AppError } from '../../lib/errors.ts';
import {
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
} from '../../ownership/owned-app-user.ts';

export interface UserVariableIds extends AppUserIds {
  name: string;
}

/**
 * The condition every owner statement on one end user's variable carries: that variable of
 * that user, the user being the signed-in owner's (through ownedAppUserWhere's subquery).
 */
export function ownedUserVariableWhere(ctx: OwnerContext, ids: UserVariableIds) {
  return and(
    eq(appUserVariables.appUserId, ids.userId),
    eq(appUserVariables.applicationId, ids.applicationId),
    eq(appUserVariables.name, ids.name),
    eq(
      appUserVariables.appUserId,
      ctx.db.select({ id: appUsers.id }).from(appUsers).where(ownedAppUserWhere(ctx, ids)),
    ),
  );
}

/** The 404 to give when a scoped statement matched nothing: the application, user or variable. */
export async function userVariableNotFound(
  ctx: OwnerContext,
  ids: UserVariableIds,
): Promise<AppError> {
  const [user] = await ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(ownedAppUserWhere(ctx, ids));
  // appUserNotFound throws 'Application not found' itself when the application is not the owner's.
  if (!user) return appUserNotFound(ctx, ids);
  return notFound(VARIABLE_NOT_FOUND);
}
