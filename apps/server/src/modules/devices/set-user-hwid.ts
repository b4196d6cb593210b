import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserDevices, appUsers, type AppUser } from '../../db/schema/index.ts';
import { writeActivityRows } from '../activity/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { addDevice } from './add-device.ts';
import type { WrittenDeviceEvents } from './device-change-context.ts';
import { releaseDevices } from './release-devices.ts';

/**
 * The owner sets the seed's one HWID field of a user (create or edit), inside
 * the transaction that holds the user's row: null releases every device (the next login binds
 * anew); a HWID the user already has changes nothing (the Edit dialog sends the shown value
 * back); another HWID becomes the user's only device. Answers the user with the summary
 * refreshed, and the events written, for the caller to tell the recorder after commit.
 */
export async function setUserHwid(
  tx: Database,
  user: AppUser,
  hwid: string | null,
  now: Date,
): Promise<{ user: AppUser; events: WrittenDeviceEvents }> {
  const records: ActivityRecord[] = [];
  let queuedDeliveries = 0;
  const held = await tx
    .select({ hwid: appUserDevices.hwid })
    .from(appUserDevices)
    .where(eq(appUserDevices.appUserId, user.id));
  const isAlreadyBound = hwid !== null && held.some((device) => device.hwid === hwid);
  if (!isAlreadyBound) {
    const identity = {
      applicationId: user.applicationId,
      appUserId: user.id,
      username: user.username,
    };
    if (held.length > 0) {
      const released = await releaseDevices(tx, {
        ...identity,
        which: 'all',
        releasedBy: 'owner',
        ipAddress: null,
        now,
      });
      records.push(...released.records);
      queuedDeliveries += released.queuedDeliveries;
    }
    if (hwid !== null) {
      const added = await addDevice(tx, {
        ...identity,
        hwid,
        deviceName: null,
        ipAddress: null,
        now,
      });
      if (added) {
        queuedDeliveries += await writeActivityRows(tx, [added]);
        records.push(added);
      }
    }
  }
  const [current] = await tx.select().from(appUsers).where(eq(appUsers.id, user.id));
  return { user: current ?? user, events: { records, queuedDeliveries } };
}
