import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { DeviceReleaser } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appUserDevices, appUserSessions } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { writeActivityRows } from '../activity/index.ts';
import { endSessionsWithDeliveries, type EndedSession } from '../../outbox/end-sessions.ts';
import { deviceReleasedRecord } from './device-events.ts';
import { refreshDeviceSummary } from './device-summary.ts';

/** Which of a user's devices to release. */
export type DevicesToRelease = { deviceId: string } | { hwid: string } | 'all';

export interface ReleasedDevices {
  released: { id: string; hwid: string; name: string | null }[];
  /** The `device_released` rows written, for the recorder's subscribers (noteWritten). */
  records: ActivityRecord[];
  queuedDeliveries: number;
  /** Sessions ended with the devices: caches must drop them (SessionLookup.announceEnded). */
  endedSessions: EndedSession[];
}

/**
 * Releases devices of one user inside the caller's transaction: the rows go, the user's summary
 * follows, the sessions started from those devices end at once (all the user's sessions when
 * every device goes), and each release is a `device_released` event with its webhook
 * deliveries, written before the caller answers. The caller has already proved the user is
 * theirs (the owner's scope, or the end user's password) and announces the change after commit.
 */
export async function releaseDevices(
  tx: Database,
  input: {
    applicationId: number;
    appUserId: string;
    username: string;
    which: DevicesToRelease;
    releasedBy: DeviceReleaser;
    ipAddress: string | null;
    now: Date;
  },
): Promise<ReleasedDevices> {
  const { which } = input;
  const ofUser = eq(appUserDevices.appUserId, input.appUserId);
  const where: SQL | undefined =
    which === 'all'
      ? ofUser
      : 'deviceId' in which
        ? and(ofUser, eq(appUserDevices.id, which.deviceId))
        : and(ofUser, eq(appUserDevices.hwid, which.hwid));
  const released = await tx
    .delete(appUserDevices)
    .where(where)
    .returning({ id: appUserDevices.id, hwid: appUserDevices.hwid, name: appUserDevices.name });
  if (released.length === 0) {
    return { released, records: [], queuedDeliveries: 0, endedSessions: [] };
  }

  const ofUserSessions = eq(appUserSessions.appUserId, input.appUserId);
  const endedSessions = await endSessionsWithDeliveries(
    tx,
    which === 'all'
      ? ofUserSessions
      : and(
          ofUserSessions,
          inArray(
            appUserSessions.hwid,
            released.map((device) => device.hwid),
          ),
        )!,
    'device_released',
    input.now,
  );
  await refreshDeviceSummary(tx, input.appUserId);
  const records = released.map((device) =>
    deviceReleasedRecord({
      applicationId: input.applicationId,
      appUserId: input.appUserId,
      username: input.username,
      hwid: device.hwid,
      deviceName: device.name,
      ipAddress: input.ipAddress,
      releasedBy: input.releasedBy,
      now: input.now,
    }),
  );
  const queuedDeliveries = await writeActivityRows(tx, records);
  return { released, records, queuedDeliveries, endedSessions };
}
