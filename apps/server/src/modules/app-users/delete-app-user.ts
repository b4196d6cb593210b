import { appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { appUserNotFound, ownedAppUserWhere, type AppUserIds } from './owned-app-user.ts';

/** Deletes an end user; their client sessions cascade, their activity logs keep the username. */
export async function deleteAppUser({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AppUserIds;
}): Promise<void> {
  const [deleted] = await ctx.db
    .delete(appUsers)
    .where(ownedAppUserWhere(ctx, input))
    .returning({ id: appUsers.id });
  if (!deleted) throw await appUserNotFound(ctx, input);
}
