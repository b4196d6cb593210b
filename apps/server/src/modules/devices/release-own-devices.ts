import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUsers } from '../../db/schema/index.ts';
import { releaseDevices, type DevicesToRelease, type ReleasedDevices } from './release-devices.ts';

const HOUR_MS = 3_600_000;

export type OwnReleaseOutcome =
  | { kind: 'not-allowed' }
  | { kind: 'cooldown'; nextResetAt: Date | null }
  | { kind: 'no-such-device' }
  | { kind: 'released'; released: ReleasedDevices; nextResetAt: Date | null };

/** When a user who last released at `lastResetAt` may release again (null: now). */
export function nextSelfResetAt(
  lastResetAt: Date | null,
  cooldownHours: number,
  now: Date,
): Date | null {
  if (lastResetAt === null || cooldownHours === 0) return null;
  const next = new Date(lastResetAt.getTime() + cooldownHours * HOUR_MS);
  return next > now ? next : null;
}

/** A named device the user does not have: nothing released, no cooldown spent. */
class NoSuchDevice extends Error {}

/**
 * The end user releases their own devices (the client API's devices/reset, the portal): the
 * application must allow it, at most once per `resetCooldownHours`. The cooldown is claimed
 * in the statement that checks it, so two releases racing release once; a device the user
 * does not have rolls everything back. The caller has proved who the user is.
 */
export async function releaseOwnDevices(
  db: Database,
  input: {
    application: { id: number; isSelfServiceReset: boolean; resetCooldownHours: number };
    user: { id: string; username: string };
    which: DevicesToRelease;
    ipAddress: string | null;
    now: Date;
  },
): Promise<OwnReleaseOutcome> {
  const { application, user, now } = input;
  if (!application.isSelfServiceReset) return { kind: 'not-allowed' };
  const cooldownMs = application.resetCooldownHours * HOUR_MS;
  try {
    return await db.transaction(async (tx): Promise<OwnReleaseOutcome> => {
      const [claimed] = await tx
        .update(appUsers)
        .set({ lastSelfResetAt: now })
        .where(
          and(
            eq(appUsers.id, user.id),
            eq(appUsers.applicationId, application.id),
            or(
              isNull(appUsers.lastSelfResetAt),
              lte(appUsers.lastSelfResetAt, new Date(now.getTime() - cooldownMs)),
            ),
          ),
        )
        .returning({ id: appUsers.id });
      if (!claimed) {
        const [current] = await tx
          .select({ lastResetAt: appUsers.lastSelfResetAt })
          .from(appUsers)
          .where(eq(appUsers.id, user.id));
        const lastResetAt = current?.lastResetAt ?? null;
        return {
          kind: 'cooldown',
          nextResetAt: nextSelfResetAt(lastResetAt, application.resetCooldownHours, now),
        };
      }
      const released = await releaseDevices(tx, {
        applicationId: application.id,
        appUserId: user.id,
        username: user.username,
        which: input.which,
        releasedBy: 'end_user',
        ipAddress: input.ipAddress,
        now,
      });
      if (input.which !== 'all' && released.released.length === 0) throw new NoSuchDevice();
      return {
        kind: 'released',
        released,
        nextResetAt: nextSelfResetAt(now, application.resetCooldownHours, now),
      };
    });
  } catch (error) {
    if (error instanceof NoSuchDevice) return { kind: 'no-such-device' };
    throw error;
  }
}
