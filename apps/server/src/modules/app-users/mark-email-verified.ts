import { USER_HAS_NO_EMAIL } from '@latchkey/contracts';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { AppError } from '../../lib/errors.ts';
import {
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
  type EndUserChangeContext,
} from '../../ownership/owned-app-user.ts';
import { writeActivityRows, type ActivityRecorder } from '../activity/index.ts';
import { updateOwnedAppUser } from './update-owned-app-user.ts';

/**
 * The owner vouches for an end user's address (they confirmed it another way): the user is
 * verified as if they had followed a mailed link, and `email_verified` (via `owner`) is
 * written to the activity log and webhooks with the audit entry. 409 for a user without an
 * address; an address confirmed already is answered as it is, with nothing written.
 */
export async function markEmailVerified({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext & { activity: Pick<ActivityRecorder, 'noteWritten'> };
  input: AppUserIds;
}): Promise<AppUser> {
  const [current] = await ctx.db.select().from(appUsers).where(ownedAppUserWhere(ctx, input));
  if (!current) throw await appUserNotFound(ctx, input);
  if (!current.email) throw new AppError('CONFLICT', USER_HAS_NO_EMAIL);
  if (current.emailVerifiedAt) return current;
  let written: { record: ActivityRecord; queued: number } | null = null;
  const user = await updateOwnedAppUser(
    ctx,
    input,
    { emailVerifiedAt: ctx.clock.now() },
    {
      audit: { action: 'end_user_email_verified', change: { email: current.email } },
      alsoInTransaction: async (tx, updated, now) => {
        const record: ActivityRecord = {
          applicationId: input.applicationId,
          appUserId: updated.id,
          username: updated.username,
          event: 'email_verified',
          success: true,
          ipAddress: ctx.actor.ipAddress,
          errorMessage: null,
          metadata: { via: 'owner', code: 'OK' },
          createdAt: now,
        };
        written = { record, queued: await writeActivityRows(tx, [record]) };
        return updated;
      },
    },
  );
  const noted = written as { record: ActivityRecord; queued: number } | null;
  if (noted) ctx.activity.noteWritten(noted.record, noted.queued);
  return user;
}
