import { and, count, eq, gt, min } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUsers, seatLeases } from '../../db/schema/index.ts';

export type SeatOutcome =
  | { kind: 'taken'; leaseId: string; expiresAt: Date }
  | { kind: 'full'; nextFreeAt: Date }
  | { kind: 'gone' };

/**
 * Leases one of the holder's `seats` to a login, for `leaseMinutes`. The holder's row is locked
 * first and the live leases counted after, so every login of one holder counts in turn: N+1
 * logins at once, on one instance or several, take N seats and the last is told when the
 * first lease lapses. A lapsed lease holds nothing; it is not deleted here.
 */
export async function takeSeat(
  db: Database,
  input: {
    applicationId: number;
    appUserId: string;
    seats: number;
    leaseMinutes: number;
    tokenHash: string;
    hwid: string | null;
    now: Date;
  },
): Promise<SeatOutcome> {
  const { now } = input;
  return db.transaction(async (tx): Promise<SeatOutcome> => {
    const [holder] = await tx
      .select({ id: appUsers.id })
      .from(appUsers)
      .where(and(eq(appUsers.id, input.appUserId), eq(appUsers.applicationId, input.applicationId)))
      .for('update');
    if (!holder) return { kind: 'gone' };
    const [live] = await tx
      .select({ inUse: count(), nextFreeAt: min(seatLeases.expiresAt) })
      .from(seatLeases)
      .where(and(eq(seatLeases.appUserId, input.appUserId), gt(seatLeases.expiresAt, now)));
    if (live && live.inUse >= input.seats && live.nextFreeAt) {
      return { kind: 'full', nextFreeAt: new Date(live.nextFreeAt) };
    }
    const expiresAt = new Date(now.getTime() + input.leaseMinutes * 60_000);
    const [lease] = await tx
      .insert(seatLeases)
      .values({
        applicationId: input.applicationId,
        appUserId: input.appUserId,
        tokenHash: input.tokenHash,
        hwid: input.hwid,
        leaseMinutes: input.leaseMinutes,
        expiresAt,
        createdAt: now,
      })
      .returning({ id: seatLeases.id });
    if (!lease) throw new Error('the lease insert returned no row');
    return { kind: 'taken', leaseId: lease.id, expiresAt };
  });
}
