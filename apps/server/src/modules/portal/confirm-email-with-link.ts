import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { EMAIL_VERIFICATION_LINK_INVALID, type PortalEmailVerified } from '@latchkey/contracts';
import { rowsOf } from '../../db/rows-of.ts';
import { endUserTokens } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { AppError } from '../../lib/errors.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';
import { writeActivityRows } from '../activity/index.ts';
import { announcePortalChange, type PortalContext } from './portal-context.ts';

/**
 * POST /api/portal/:publicId/email/verify: the end user followed the link mailed to confirm
 * their address. One statement spends the token and every other confirmation link of the
 * user, and stamps the address as confirmed, but only while the user's address is still the
 * one the link was mailed to. `email_verified` is written to the activity log with its webhook
 * deliveries, and the user's cached standing is dropped everywhere, so their next login
 * passes. An unknown, used, expired or outdated link are one answer (410).
 */
export async function confirmEmailWithLink({
  ctx,
  input,
}: {
  ctx: PortalContext;
  input: { token: string };
}): Promise<PortalEmailVerified> {
  const tokenDigest = keyedDigest(input.token, 'end-user-token', ctx.serverSecret);
  const now = ctx.clock.now();
  const written = await ctx.db.transaction(async (tx) => {
    const [confirmed] = rowsOf<{ id: string; username: string; email: string }>(
      await tx.execute(sql`
        with spent as (
          update end_user_tokens
          set used_at = ${now}
          where token_digest = ${tokenDigest} and application_id = ${ctx.portal.id}
            and purpose = 'email_verification' and used_at is null and expires_at > now()
          returning app_user_id, email
        )
        update app_users u
        set email_verified_at = ${now}, updated_at = ${now}
        from spent
        where u.id = spent.app_user_id and lower(u.email) = lower(spent.email)
        returning u.id, u.username, u.email`),
    );
    if (!confirmed) return null;
    await tx
      .update(endUserTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(endUserTokens.appUserId, confirmed.id),
          eq(endUserTokens.purpose, 'email_verification'),
          isNull(endUserTokens.usedAt),
          gt(endUserTokens.expiresAt, now),
        ),
      );
    const record: ActivityRecord = {
      applicationId: ctx.portal.id,
      appUserId: confirmed.id,
      username: confirmed.username,
      event: 'email_verified',
      success: true,
      ipAddress: ctx.ipAddress,
      errorMessage: null,
      metadata: { via: 'link', code: 'OK' },
      createdAt: now,
    };
    return { confirmed, record, queued: await writeActivityRows(tx, [record]) };
  });
  // A link to an address the user has since changed is spent, and confirms nothing.
  if (!written) throw new AppError('LINK_INVALID', EMAIL_VERIFICATION_LINK_INVALID);
  ctx.activity.noteWritten(written.record, written.queued);
  // Verify's cached standing of this user, here and in other instances.
  await announcePortalChange(ctx, written.confirmed.id);
  return { username: written.confirmed.username, email: written.confirmed.email };
}
