import { appUsers } from '../../db/schema/index.ts';
import {
  announceEndUserChange,
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
  type EndUserChangeContext,
} from './owned-app-user.ts';

/** Deletes an end user; their client sessions cascade, their activity logs keep the username. */
export async function deleteAppUser({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds;
}): Promise<void> {
  const [deleted] = await ctx.db
    .delete(appUsers)
    .where(ownedAppUserWhere(ctx, input))
    .returning({ id: appUsers.id });
  if (!deleted) throw await appUserNotFound(ctx, input);
  await announceEndUserChange(ctx, input);
}
