import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserDevices, appUsers } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { writeActivityRows } from '../activity/index.ts';
import type { EndedSession } from '../../outbox/end-sessions.ts';
import { queueMail } from '../mail/index.ts';
import { addDevice } from './add-device.ts';
import { releaseDevices } from './release-devices.ts';

const DAY_MS = 86_400_000;

export type BindOutcome =
  | {
      kind: 'bound';
      /** device_added (and any device_released for inactivity) rows, already written. */
      records: ActivityRecord[];
      queuedDeliveries: number;
      endedSessions: EndedSession[];
    }
  | { kind: 'no-seat' }
  | { kind: 'gone' };

/**
 * Binds a device the user does not have yet, if a seat is free. The user's row is
 * locked first and the devices read after it, so every binder of one user counts the seats
 * one after the other: two first logins from two machines with one seat bind exactly one
 * (the second waits, then sees the first's device). This is the slow path: a login from a
 * device already bound never comes here (login-statements.ts touches it in its one statement).
 *
 * The seats: the application's `maxDevices`, or the largest of the user's active plans'.
 * None free: with `releaseInactiveAfterDays` set, the devices unseen that long give up their
 * seats, least recently seen first, as many as needed; otherwise no seat.
 *
 * With `newDeviceMail`, a device bound beside others already there (not the account's first)
 * queues a mail to the user's address in the same transaction, naming the device and the time.
 */
export async function bindDevice(
  db: Database,
  input: {
    application: {
      id: number;
      maxDevices: number;
      releaseInactiveAfterDays: number | null;
      newDeviceMail: boolean;
    };
    serverSecret: string;
    appUserId: string;
    hwid: string;
    deviceName: string | null;
    ipAddress: string;
    now: Date;
  },
): Promise<BindOutcome> {
  const { application, now } = input;
  return db.transaction(async (tx): Promise<BindOutcome> => {
    const [user] = await tx
      .select({
        id: appUsers.id,
        username: appUsers.username,
        email: appUsers.email,
        // Qualified by hand: in a one-table select Drizzle leaves columns unqualified.
        planMaxDevices: sql<number | null>`(
          select max(held_plan.max_devices) from subscriptions held
          join plans held_plan on held_plan.id = held.plan_id
          where held.app_user_id = app_users.id
            and (held.expires_at is null or held.expires_at > ${now.toISOString()}::timestamptz))`,
      })
      .from(appUsers)
      .where(and(eq(appUsers.id, input.appUserId), eq(appUsers.applicationId, application.id)))
      .for('update', { of: appUsers });
    if (!user) return { kind: 'gone' };
    const devices = await tx
      .select({
        id: appUserDevices.id,
        hwid: appUserDevices.hwid,
        // Seen by its last login, or since by a heartbeat of a session it opened: a program
        // left running for weeks is in use, not inactive. Qualified by hand (see above).
        lastSeenAt: sql<Date>`greatest(app_user_devices.last_seen_at, (
          select max(open_session.last_heartbeat_at) from app_user_sessions open_session
          where open_session.app_user_id = app_user_devices.app_user_id
            and open_session.hwid = app_user_devices.hwid
            and open_session.ended_at is null))`.mapWith((value: string | Date) => new Date(value)),
      })
      .from(appUserDevices)
      .where(eq(appUserDevices.appUserId, user.id))
      .orderBy(asc(appUserDevices.firstSeenAt), asc(appUserDevices.id));
    // Bound meanwhile by a login from the same machine: nothing to add.
    if (devices.some((device) => device.hwid === input.hwid)) {
      return { kind: 'bound', records: [], queuedDeliveries: 0, endedSessions: [] };
    }
    const limit = Math.max(application.maxDevices, Number(user.planMaxDevices ?? 0));
    const seatsToFree = devices.length - limit + 1;
    const records: ActivityRecord[] = [];
    const endedSessions: EndedSession[] = [];
    let queuedDeliveries = 0;
    if (seatsToFree > 0) {
      if (application.releaseInactiveAfterDays === null) return { kind: 'no-seat' };
      const cutoff = now.getTime() - application.releaseInactiveAfterDays * DAY_MS;
      const inactive = devices
        .filter((device) => device.lastSeenAt.getTime() < cutoff)
        .sort((a, b) => a.lastSeenAt.getTime() - b.lastSeenAt.getTime())
        .slice(0, seatsToFree);
      if (inactive.length < seatsToFree) return { kind: 'no-seat' };
      for (const device of inactive) {
        const released = await releaseDevices(tx, {
          applicationId: application.id,
          appUserId: user.id,
          username: user.username,
          which: { deviceId: device.id },
          releasedBy: 'inactivity',
          ipAddress: null,
          now,
        });
        records.push(...released.records);
        endedSessions.push(...released.endedSessions);
        queuedDeliveries += released.queuedDeliveries;
      }
    }
    const added = await addDevice(tx, {
      applicationId: application.id,
      appUserId: user.id,
      username: user.username,
      hwid: input.hwid,
      deviceName: input.deviceName,
      ipAddress: input.ipAddress,
      now,
    });
    if (!added) throw new Error('a device appeared under the user lock');
    queuedDeliveries += await writeActivityRows(tx, [added]);
    records.push(added);
    if (application.newDeviceMail && devices.length > 0 && user.email) {
      await queueMail(tx, {
        applicationId: application.id,
        appUserId: user.id,
        kind: 'new_device',
        recipient: user.email,
        values: {
          device_name: input.deviceName ?? input.hwid,
          time: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        },
        serverSecret: input.serverSecret,
      });
    }
    return { kind: 'bound', records, queuedDeliveries, endedSessions };
  });
}
