import { and, asc, eq, exists, gt, ilike, or } from 'drizzle-orm';
import type { Page, SeatLease, SeatListQuery } from '@latchkey/contracts';
import { countCapped } from '../../db/count-capped.ts';
import { appUsers, seatLeases } from '../../db/schema/index.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';

/**
 * GET /api/applications/:id/seats: the floating seats in use now, oldest lease first, a page at
 * a time (a team plan of a thousand seats is a thousand rows), searched by the holder's name or
 * the computer's HWID.
 */
export async function listSeats({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number } & SeatListQuery;
}): Promise<Page<SeatLease>> {
  const application = await loadOwnedApplication({ ctx, input });
  const conditions = [
    eq(seatLeases.applicationId, application.id),
    gt(seatLeases.expiresAt, ctx.clock.now()),
  ];
  if (input.search) {
    const pattern = containsPattern(input.search);
    const holderNamed = ctx.db
      .select({ id: appUsers.id })
      .from(appUsers)
      .where(and(eq(appUsers.id, seatLeases.appUserId), ilike(appUsers.username, pattern)));
    conditions.push(or(ilike(seatLeases.hwid, pattern), exists(holderNamed))!);
  }
  const where = and(...conditions)!;
  const [rows, total] = await Promise.all([
    ctx.db
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
      .where(where)
      .orderBy(asc(seatLeases.createdAt), asc(seatLeases.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    countCapped(ctx.db, seatLeases, where),
  ]);
  return {
    rows: rows.map((row) => ({
      ...row,
      expiresAt: row.expiresAt.toISOString(),
      borrowedUntil: row.borrowedUntil?.toISOString() ?? null,
      leasedAt: row.leasedAt.toISOString(),
    })),
    totalCount: total.count,
    isTotalCapped: total.isCapped,
  };
}
