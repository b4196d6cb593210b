import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { OwnerWriteAction } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import {
  announceEndUserChange,
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
  type EndUserChangeContext,
} from '../../ownership/owned-app-user.ts';
import { endSessionsOfOldPassword } from './end-sessions-of-old-password.ts';
import { endSessionsOutOfStanding } from './end-sessions-out-of-standing.ts';
import { toAppUserWriteError } from './to-app-user-write-error.ts';

/**
 * Updates one of the owner's end users (and its updatedAt), or throws the right 404. A user
 * it leaves out of good standing loses their open sessions (endSessionsOutOfStanding); a new
 * password ends every session of the user (endSessionsOfOldPassword). `alsoInTransaction`
 * runs after the update, with the user's row locked by it (a change of the user's devices);
 * it answers the user as it then stands. The audit entry is written last in the same
 * transaction, so the change and its entry are committed together.
 */
export async function updateOwnedAppUser(
  ctx: EndUserChangeContext,
  ids: AppUserIds,
  values: PgUpdateSetSource<typeof appUsers>,
  options: {
    /** The change to record, or a function that tells it once alsoInTransaction has run. */
    audit: { action: OwnerWriteAction; change: unknown };
    alsoInTransaction?: (tx: Database, user: AppUser, now: Date) => Promise<AppUser>;
  },
): Promise<AppUser> {
  const now = ctx.clock.now();
  let user: AppUser | undefined;
  try {
    user = await ctx.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(appUsers)
        .set({ ...values, updatedAt: now })
        .where(ownedAppUserWhere(ctx, ids))
        .returning();
      if (!updated) return undefined;
      await endSessionsOutOfStanding(tx, [updated], now);
      if (values.passwordHash !== undefined) {
        await endSessionsOfOldPassword(tx, { appUserId: updated.id, now });
      }
      const current = options.alsoInTransaction
        ? await options.alsoInTransaction(tx, updated, now)
        : updated;
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: options.audit.action,
          application: { id: ids.applicationId },
          target: { kind: 'end_user', id: current.id, label: current.username },
          change:
            typeof options.audit.change === 'function'
              ? (options.audit.change as () => unknown)()
              : options.audit.change,
        },
      });
      return current;
    });
  } catch (error) {
    throw toAppUserWriteError(error);
  }
  if (!user) throw await appUserNotFound(ctx, ids);
  await announceEndUserChange(ctx, ids);
  return user;
}
