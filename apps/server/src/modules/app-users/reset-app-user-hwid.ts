import type { AppUser } from '../../db/schema/index.ts';
import type { DeviceChangeContext } from '../devices/device-change-context.ts';
import { releaseUserDevices } from '../devices/release-user-devices.ts';
import { updateOwnedAppUser, type AppUserIds } from './owned-app-user.ts';

/**
 * The seed's "Reset HWID": releases every device of the user (issue 24), so with HWID lock on
 * the next login binds whichever device it is; the sessions of those devices end.
 */
export async function resetAppUserHwid({
  ctx,
  input,
}: {
  ctx: DeviceChangeContext;
  input: AppUserIds;
}): Promise<AppUser> {
  await releaseUserDevices({ ctx, input });
  // The answer is the user as the console shows it: summary refreshed, updatedAt bumped.
  return updateOwnedAppUser(ctx, input, {});
}
