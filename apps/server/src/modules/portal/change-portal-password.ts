import { eq } from 'drizzle-orm';
import { endUserPasswordProblem, PORTAL_WRONG_PASSWORD } from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/password-hashing.ts';
import type { PortalContext } from './portal-context.ts';
import { endOtherPortalSessions, type FoundPortalSession } from './portal-sessions.ts';

/**
 * POST /api/portal/:publicId/password: a new password, proven by the current one (a wrong one
 * counts as a failed login: a stolen portal cookie cannot be used to guess it). The user's other
 * portal sessions end; this one stays.
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
  await ctx.db
    .update(appUsers)
    .set({ passwordHash, updatedAt: ctx.clock.now() })
    .where(eq(appUsers.id, user.id));
  await endOtherPortalSessions(ctx.db, { appUserId: user.id, keepSessionId: session.sessionId });
}
