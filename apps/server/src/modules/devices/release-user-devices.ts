import { DEVICE_NOT_FOUND } from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import {
  announceEndUserChange,
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
} from '../../ownership/owned-app-user.ts';
import { noteDeviceEvents, type DeviceChangeContext } from './device-change-context.ts';
import { releaseDevices } from './release-devices.ts';

/**
 * The owner releases one device of a user (`deviceId`), or all of them: the user can log in
 * from another machine at once, and the sessions started from the released devices end.
 * The user's row is locked first, as a binding login locks it, so a release and a binding
 * never count seats from two different pictures. The audit entry is in the same transaction.
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
    const released = await releaseDevices(tx, {
      applicationId: input.applicationId,
      appUserId: user.id,
      username: user.username,
      which: input.deviceId === undefined ? 'all' : { deviceId: input.deviceId },
      releasedBy: 'owner',
      ipAddress: null,
      now,
    });
    // Nothing released is nothing written: no entry.
    if (released.released.length > 0) {
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'end_user_devices_released',
          application: { id: input.applicationId },
          target: { kind: 'end_user', id: user.id, label: user.username },
          change: {
            ...(input.deviceId === undefined ? { all: true } : { deviceId: input.deviceId }),
            released: released.released.length,
          },
        },
      });
    }
    return released;
  });
  if (!outcome) throw await appUserNotFound(ctx, input);
  if (input.deviceId !== undefined && outcome.released.length === 0) {
    throw notFound(DEVICE_NOT_FOUND);
  }
  noteDeviceEvents(ctx, outcome);
  if (outcome.released.length > 0) await announceEndUserChange(ctx, input);
  return { released: outcome.released.length };
}
