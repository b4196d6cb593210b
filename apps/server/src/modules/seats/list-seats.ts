import { and, asc, eq, gt } from 'drizzle-orm';
import type { SeatLease } from '@latchkey/contracts';
import { appUsers, seatLeases } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';

/** GET /api/applications/:id/seats: the floating seats in use now, oldest lease first. */
export async function listSeats({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number };
}): Promise<SeatLease[]> {
  const application = await loadOwnedApplication({ ctx, input });
  const rows = await ctx.db
    .select({
      id: seatLeases.id,
      userId: seatLeases.appUserId,
      username: appUsers.username,
      hwid: seatLeases.hwid,
      expiresAt: seatLeases.expiresAt,
      borrowedUntil: seatLeases.borrowedUntil,
      leasedAt: seatLeases.createdAt,
    })
    .from(seatLeases)
    .innerJoin(appUsers, eq(appUsers.id, seatLeases.appUserId))
    .where(
      and(eq(seatLeases.applicationId, application.id), gt(seatLeases.expiresAt, ctx.clock.now())),
    )
    .orderBy(asc(seatLeases.createdAt), asc(seatLeases.id));
  return rows.map((row) => ({
    ...row,
    expiresAt: row.expiresAt.toISOString(),
    borrowedUntil: row.borrowedUntil?.toISOString() ?? null,
    leasedAt: row.leasedAt.toISOString(),
  }));
}
