import { and, eq } from 'drizzle-orm';
import { appUsers, blacklistEntries } from '../../db/schema/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { endSessions } from '../../outbox/end-sessions.ts';
import type { ClientCallServices } from '../client-api/index.ts';

type BanContext = ReturnType<ClientCallServices['contextOf']> & {
  sessions: ClientCallServices['sessions'];
  applicationEvents: ApplicationEvents;
};

/**
 * KeyAuth's `ban`: a program bans its own end user (it caught them tampering). The account is
 * disabled, the machine's HWID (the one sent, else the user's last login's) goes on the
 * application's blacklist with the reason, and every session of the user ends, in one
 * transaction; the `user_banned` event carries the reason to the activity log and webhooks.
 * Unlike KeyAuth, the caller's IP address is not blacklisted: addresses are shared (offices,
 * carrier NAT) and the owner can add one from the activity log.
 */
export async function banOwnUser({
  ctx,
  input,
}: {
  ctx: BanContext;
  input: { appUserId: string; reason: string; hwid: string | null };
}): Promise<void> {
  const { application } = ctx;
  const now = ctx.clock.now();
  const { username, ended } = await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .update(appUsers)
      .set({ isActive: false, updatedAt: now })
      .where(and(eq(appUsers.id, input.appUserId), eq(appUsers.applicationId, application.id)))
      .returning({ username: appUsers.username, lastLoginHwid: appUsers.lastLoginHwid });
    const hwid = input.hwid ?? user?.lastLoginHwid ?? null;
    if (hwid) {
      await tx.insert(blacklistEntries).values({
        ownerAccountId: application.ownerAccountId,
        applicationId: application.id,
        type: 'hwid',
        value: hwid,
        reason: input.reason,
        createdAt: now,
      });
    }
    const endedSessions = await endSessions(tx, { appUserId: input.appUserId }, 'standing', now);
    return { username: user?.username ?? null, ended: endedSessions };
  });
  if (ended.length > 0) ctx.sessions.announceEnded(ended, ctx.log);
  await ctx.applicationEvents.emitChange(
    { kind: 'end-user-changed', applicationId: application.id, userId: input.appUserId },
    ctx.log,
  );
  await ctx.activity.recordActivity({
    applicationId: application.id,
    appUserId: input.appUserId,
    username,
    event: 'user_banned',
    success: true,
    ipAddress: ctx.ipAddress,
    errorMessage: null,
    metadata: { reason: input.reason, hwid: input.hwid !== null },
    createdAt: now,
  });
}
