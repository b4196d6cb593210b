import type { Database } from '../../db/client.ts';
import { appUserDevices } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { deviceAddedRecord } from './device-events.ts';
import { refreshDeviceSummary } from './device-summary.ts';

/**
 * Adds a device to a user inside the caller's transaction, with the summary, and answers its
 * `device_added` row for the caller to write with its other events (null when the user already
 * had it). The caller has decided there is a seat: a login (bind-device.ts, under the user's
 * lock), a registration, or the owner setting the user's HWID.
 */
export async function addDevice(
  tx: Database,
  input: {
    applicationId: number;
    appUserId: string;
    username: string;
    hwid: string;
    deviceName: string | null;
    ipAddress: string | null;
    now: Date;
  },
): Promise<ActivityRecord | null> {
  const [added] = await tx
    .insert(appUserDevices)
    .values({
      applicationId: input.applicationId,
      appUserId: input.appUserId,
      hwid: input.hwid,
      name: input.deviceName,
      firstSeenAt: input.now,
      lastSeenAt: input.now,
      lastIp: input.ipAddress,
    })
    .onConflictDoNothing()
    .returning({ id: appUserDevices.id });
  if (!added) return null;
  await refreshDeviceSummary(tx, input.appUserId);
  return deviceAddedRecord(input);
}
