import { and, eq, inArray } from 'drizzle-orm';
import { SEAT_NOT_FOUND } from '@latchkey/contracts';
import { appUserSessions, appUsers, seatLeases } from '../../db/schema/index.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { notFound } from '../../lib/errors.ts';
import { endSessionsWithDeliveries } from '../../outbox/end-sessions.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';
import {
  announceEndUserChange,
  type EndUserChangeContext,
} from '../../ownership/owned-app-user.ts';

/**
 * DELETE /api/applications/:id/seats/:leaseId: the owner frees a seat in use. Its login's
 * session ends with it (a program left running without its seat would make N+1), in the same
 * transaction, with the audit entry; a borrowed seat is freed too, though the offline licence
 * already issued cannot be recalled.
 */
export async function freeSeat({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: { applicationId: number; leaseId: string };
}): Promise<void> {
  const freed = await ctx.db.transaction(async (tx) => {
    const [lease] = await tx
      .delete(seatLeases)
      .where(
        and(
          eq(seatLeases.id, input.leaseId),
          eq(seatLeases.applicationId, input.applicationId),
          inArray(seatLeases.applicationId, ownedApplicationIds(ctx, input.applicationId)),
        ),
      )
      .returning({
        appUserId: seatLeases.appUserId,
        tokenHash: seatLeases.tokenHash,
        hwid: seatLeases.hwid,
        borrowedUntil: seatLeases.borrowedUntil,
      });
    if (!lease) return null;
    await endSessionsWithDeliveries(
      tx,
      and(
        eq(appUserSessions.applicationId, input.applicationId),
        eq(appUserSessions.tokenHash, lease.tokenHash),
      )!,
      'owner',
      ctx.clock.now(),
    );
    const [user] = await tx
      .select({ username: appUsers.username })
      .from(appUsers)
      .where(eq(appUsers.id, lease.appUserId));
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'seat_freed',
        application: { id: input.applicationId },
        target: { kind: 'end_user', id: lease.appUserId, label: user?.username ?? null },
        change: {
          leaseId: input.leaseId,
          hwid: lease.hwid,
          wasBorrowed: lease.borrowedUntil !== null,
        },
      },
    });
    return lease;
  });
  if (!freed) {
    // Another owner's application is indistinguishable from a missing one.
    await loadOwnedApplication({ ctx, input });
    throw notFound(SEAT_NOT_FOUND);
  }
  // Its session's caches, here and in every instance.
  await announceEndUserChange(ctx, {
    applicationId: input.applicationId,
    userId: freed.appUserId,
  });
}
