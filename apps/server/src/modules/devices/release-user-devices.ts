import { DEVICE_NOT_FOUND } from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import {
  announceEndUserChange,
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
} from '../app-users/owned-app-user.ts';
import { noteDeviceEvents, type DeviceChangeContext } from './device-change-context.ts';
import { releaseDevices } from './release-devices.ts';

/**
 * The owner releases one device of a user (`deviceId`), or all of them: the user can log in
 * from another machine at once, and the sessions started from the released devices end.
 * The user's row is locked first, as a binding login locks it, so a release and a binding
 * never count seats from two different pictures.
 */
export async function releaseUserDevices({
  ctx,
  input,
}: {
  ctx: DeviceChangeContext;
  input: AppUserIds & { deviceId?: string };
}): Promise<{ released: number }> {
  const now = ctx.clock.now();
  const outcome = await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: appUsers.id, username: appUsers.username })
      .from(appUsers)
      .where(ownedAppUserWhere(ctx, input))
      .for('update', { of: appUsers });
    if (!user) return null;
    return releaseDevices(tx, {
      applicationId: input.applicationId,
      appUserId: user.id,
      username: user.username,
      which: input.deviceId === undefined ? 'all' : { deviceId: input.deviceId },
      releasedBy: 'owner',
      ipAddress: null,
      now,
    });
  });
  if (!outcome) throw await appUserNotFound(ctx, input);
  if (input.deviceId !== undefined && outcome.released.length === 0) {
    throw notFound(DEVICE_NOT_FOUND);
  }
  noteDeviceEvents(ctx, outcome);
  if (outcome.released.length > 0) await announceEndUserChange(ctx, input);
  return { released: outcome.released.length };
}
