import type { AppUser } from '../../db/schema/index.ts';
import { appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import {
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
} from '../../ownership/owned-app-user.ts';

/** One of the owner's end users, or the right 404 (application or user). */
export async function getAppUser({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AppUserIds;
}): Promise<AppUser> {
  const [user] = await ctx.db.select().from(appUsers).where(ownedAppUserWhere(ctx, input)).limit(1);
  if (!user) throw await appUserNotFound(ctx, input);
  return user;
}
