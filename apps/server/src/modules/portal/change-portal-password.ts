import { eq } from 'drizzle-orm';
import { endUserPasswordProblem, PORTAL_WRONG_PASSWORD } from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password-hashing.ts';
import { endSessionsOfOldPassword } from '../app-users/index.ts';
import { announcePortalChange, type PortalContext } from './portal-context.ts';
import type { FoundPortalSession } from './portal-sessions.ts';

/**
 * POST /api/portal/:publicId/password: a new password, proven by the current one (a wrong one
 * counts as a failed login: a stolen portal cookie cannot be used to guess it). Every other
 * session of the user ends with the old password, in the same transaction: their programs'
 * client sessions and their other portal sessions. This portal session stays.
 */
export async function changePortalPassword({
  ctx,
  session,
  input,
  minimumLength,
}: {
  ctx: PortalContext;
  session: FoundPortalSession;
  input: { currentPassword: string; newPassword: string };
  minimumLength: number;
}): Promise<void> {
  const { user } = session;
  const attempt = {
    applicationId: ctx.portal.id,
    username: user.username,
    ipAddress: ctx.ipAddress,
  };
  await ctx.loginThrottles.admitBeforeLookup(attempt);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await ctx.loginThrottles.recordFailure(attempt, null);
    throw new AppError('FORBIDDEN', PORTAL_WRONG_PASSWORD);
  }
  const problem = endUserPasswordProblem(input.newPassword, minimumLength);
  if (problem) throw badRequest(`New password: ${problem}`);
  const passwordHash = await hashPassword(input.newPassword);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx.update(appUsers).set({ passwordHash, updatedAt: now }).where(eq(appUsers.id, user.id));
    await endSessionsOfOldPassword(tx, {
      appUserId: user.id,
      keepPortalSessionId: session.sessionId,
      now,
    });
  });
  // The ended client sessions may be cached, here and in other instances.
  await announcePortalChange(ctx, user.id);
}
