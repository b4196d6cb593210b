import type { AppUser } from '../../db/schema/index.ts';
import { noteDeviceEvents, type DeviceChangeContext, setUserHwid } from '../devices/index.ts';
import type { AppUserIds } from '../../ownership/owned-app-user.ts';
import { updateOwnedAppUser } from './update-owned-app-user.ts';

/**
 * The seed's "Reset HWID": releases every device of the user, so with HWID lock on
 * the next login binds whichever device it is; the sessions of those devices end. One
 * transaction with its audit entry: the user's row is locked by the update before the
 * devices go, as a binding login locks it. The answer is the user as the console shows it.
 */
export async function resetAppUserHwid({
  ctx,
  input,
}: {
  ctx: DeviceChangeContext;
  input: AppUserIds;
}): Promise<AppUser> {
  let released = 0;
  const written: Parameters<typeof noteDeviceEvents>[1] = { records: [], queuedDeliveries: 0 };
  const user = await updateOwnedAppUser(
    ctx,
    input,
    {},
    {
      audit: { action: 'end_user_hwid_reset', change: () => ({ released }) },
      alsoInTransaction: async (tx, updated, now) => {
        const outcome = await setUserHwid(tx, updated, null, now);
        released = outcome.events.records.filter(
          (record) => record.event === 'device_released',
        ).length;
        Object.assign(written, outcome.events);
        return outcome.user;
      },
    },
  );
  noteDeviceEvents(ctx, written);
  return user;
}
