import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { endUserPasswordProblem, PASSWORD_RESET_LINK_INVALID } from '@latchkey/contracts';
import { appUsers, endUserTokens } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/password-hashing.ts';
import { writeActivityRows } from '../activity/index.ts';
import { endSessionsOfOldPassword } from '../app-users/index.ts';
import { announcePortalChange, type PortalContext } from './portal-context.ts';

/**
 * POST /api/portal/:publicId/password/reset: the new password chosen through a mailed link.
 * The link's token is looked up by its keyed digest and spent in the transaction that sets
 * the password, so it works once, and spends every other reset link of the user with it. Every
 * session of the user ends (their programs' and the portal's), and `password_reset` is written
 * to the activity log with its webhook deliveries. An unknown, used and expired link are one
 * answer (410). The password is hashed only once a link is known to be live: a stranger's random
 * tokens cost a lookup, not a hash.
 */
export async function resetPasswordWithLink({
  ctx,
  input,
  minimumLength,
}: {
  ctx: PortalContext;
  input: { token: string; password: string };
  minimumLength: number;
}): Promise<void> {
  const problem = endUserPasswordProblem(input.password, minimumLength);
  if (problem) throw badRequest(problem);
  const tokenDigest = keyedDigest(input.token, 'end-user-token', ctx.serverSecret);
  const isLive = and(
    eq(endUserTokens.tokenDigest, tokenDigest),
    eq(endUserTokens.applicationId, ctx.portal.id),
    eq(endUserTokens.purpose, 'password_reset'),
    isNull(endUserTokens.usedAt),
    gt(endUserTokens.expiresAt, sql`now()`),
  );
  const [live] = await ctx.db
    .select({ appUserId: endUserTokens.appUserId })
    .from(endUserTokens)
    .where(isLive);
  if (!live) throw linkInvalid();
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const written = await ctx.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(endUserTokens)
      .set({ usedAt: now })
      .where(isLive)
      .returning({ appUserId: endUserTokens.appUserId });
    // Another tab used the link between the lookup and now.
    if (!spent) return null;
    await tx
      .update(endUserTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(endUserTokens.appUserId, spent.appUserId),
          eq(endUserTokens.purpose, 'password_reset'),
          isNull(endUserTokens.usedAt),
        ),
      );
    const [user] = await tx
      .update(appUsers)
      .set({ passwordHash, loginAttempts: 0, updatedAt: now })
      .where(eq(appUsers.id, spent.appUserId))
      .returning({ id: appUsers.id, username: appUsers.username });
    if (!user) return null;
    await endSessionsOfOldPassword(tx, { appUserId: user.id, now });
    const record: ActivityRecord = {
      applicationId: ctx.portal.id,
      appUserId: user.id,
      username: user.username,
      event: 'password_reset',
      success: true,
      ipAddress: ctx.ipAddress,
      errorMessage: null,
      metadata: { via: 'link', code: 'OK' },
      createdAt: now,
    };
    return { user, record, queued: await writeActivityRows(tx, [record]) };
  });
  if (!written) throw linkInvalid();
  ctx.activity.noteWritten(written.record, written.queued);
  // The ended client sessions may be cached, here and in other instances.
  await announcePortalChange(ctx, written.user.id);
}

const linkInvalid = () => new AppError('LINK_INVALID', PASSWORD_RESET_LINK_INVALID);
