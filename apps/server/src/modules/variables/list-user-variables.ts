import { asc, eq } from 'drizzle-orm';
import type { UserVariable } from '@latchkey/contracts';
import { appUsers, appUserVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import {
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
} from '../../ownership/owned-app-user.ts';
import { toUserVariableResponse } from './to-user-variable-response.ts';

/**
 * GET …/users/:userId/variables: the user's variables by name (at most 100, so not paged).
 * Scoped through the owner's user: another owner's user is a 404, as is a missing one.
 */
export async function listUserVariables({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AppUserIds;
}): Promise<UserVariable[]> {
  const rows = await ctx.db
    .select({ user: appUsers.id, variable: appUserVariables })
    .from(appUsers)
    .leftJoin(appUserVariables, eq(appUserVariables.appUserId, appUsers.id))
    .where(ownedAppUserWhere(ctx, input))
    .orderBy(asc(appUserVariables.name));
  if (rows.length === 0) throw await appUserNotFound(ctx, input);
  return rows.flatMap((row) => (row.variable ? [toUserVariableResponse(row.variable)] : []));
}
