import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserSessions, seatLeases } from '../../db/schema/index.ts';

/**
 * Marks the live lease of a login (its token's) as borrowed until `borrowedUntil`, which is
 * also when it lapses: the session's end no longer frees it. False when the login holds no
 * live seat (it lapsed, or the owner freed it).
 */
export async function borrowLease(
  db: Database,
  input: { appUserId: string; tokenHash: string; borrowedUntil: Date; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(seatLeases)
    .set({ borrowedUntil: input.borrowedUntil, expiresAt: input.borrowedUntil })
    .where(
      and(
        eq(seatLeases.appUserId, input.appUserId),
        eq(seatLeases.tokenHash, input.tokenHash),
        gt(seatLeases.expiresAt, input.now),
      ),
    )
    .returning({ id: seatLeases.id });
  return rows.length > 0;
}

/**
 * Gives a borrowed seat back: deleted when its session has ended, else an ordinary lease again,
 * running `lease_minutes` from now and renewed by that session's heartbeats. False when the
 * login has no live borrowed seat.
 */
export async function returnLease(
  db: Database,
  input: { applicationId: number; tokenHash: string; now: Date },
): Promise<boolean> {
  const borrowed = and(
    eq(seatLeases.applicationId, input.applicationId),
    eq(seatLeases.tokenHash, input.tokenHash),
    sql`${seatLeases.borrowedUntil} is not null`,
    gt(seatLeases.expiresAt, input.now),
  );
  return db.transaction(async (tx) => {
    const [open] = await tx
      .select({ id: appUserSessions.id })
      .from(appUserSessions)
      .where(
        and(
          eq(appUserSessions.applicationId, input.applicationId),
          eq(appUserSessions.tokenHash, input.tokenHash),
          isNull(appUserSessions.endedAt),
        ),
      );
    const rows = open
      ? await tx
          .update(seatLeases)
          .set({
            borrowedUntil: null,
            expiresAt: sql`${input.now.toISOString()}::timestamptz + ${seatLeases.leaseMinutes} * interval '1 minute'`,
          })
          .where(borrowed)
          .returning({ id: seatLeases.id })
      : await tx.delete(seatLeases).where(borrowed).returning({ id: seatLeases.id });
    return rows.length > 0;
  });
}
