import { asc, eq } from 'drizzle-orm';
import { appUserDevices, appUsers, type AppUserDevice } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import {
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
} from '../../ownership/owned-app-user.ts';

/**
 * GET …/users/:userId/devices: the user's devices, oldest binding first (the order seats were
 * taken in). Scoped through the owner's user: another owner's user is a 404, as is a missing one.
 */
export async function listUserDevices({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AppUserIds;
}): Promise<AppUserDevice[]> {
  const rows = await ctx.db
    .select({ user: appUsers.id, device: appUserDevices })
    .from(appUsers)
    .leftJoin(appUserDevices, eq(appUserDevices.appUserId, appUsers.id))
    .where(ownedAppUserWhere(ctx, input))
    .orderBy(asc(appUserDevices.firstSeenAt), asc(appUserDevices.id));
  if (rows.length === 0) throw await appUserNotFound(ctx, input);
  return rows.flatMap((row) => (row.device ? [row.device] : []));
}
