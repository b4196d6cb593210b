import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { REMINDERS_LINK_INVALID } from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { reminderStopToken } from '../mail/index.ts';
import type { PortalContext } from './portal-context.ts';

/**
 * The end user stops expiry reminders, through the link every reminder carries (its page, or
 * a mail program's one-click `List-Unsubscribe-Post`). The link names the user and carries a
 * keyed digest of their id, so it needs no stored token and works for as long as reminders
 * come; anything else is one answer (410). Stopping twice is stopping once.
 */
export async function stopExpiryReminders({
  ctx,
  input,
}: {
  ctx: PortalContext;
  input: { user: string; token: string };
}): Promise<void> {
  const expected = Buffer.from(reminderStopToken(input.user, ctx.serverSecret));
  const given = Buffer.from(input.token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('LINK_INVALID', REMINDERS_LINK_INVALID);
  }
  const [user] = await ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(and(eq(appUsers.id, input.user), eq(appUsers.applicationId, ctx.portal.id)));
  if (!user) throw new AppError('LINK_INVALID', REMINDERS_LINK_INVALID);
  await ctx.db
    .update(appUsers)
    .set({ remindersStoppedAt: ctx.clock.now() })
    .where(and(eq(appUsers.id, user.id), isNull(appUsers.remindersStoppedAt)));
}
