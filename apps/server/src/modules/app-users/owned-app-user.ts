import { and, eq, inArray } from 'drizzle-orm';
import { USERNAME_TAKEN, type OwnerWriteAction } from '@latchkey/contracts';
import { applications, appUserSessions, appUsers, type AppUser } from '../../db/schema/index.ts';
import type { Database } from '../../db/client.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { isUniqueViolation, redactDatabaseError } from '../../lib/database-errors.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';
import { isInGoodStanding } from '../client-api/client-outcomes.ts';
import { endSessionsWithDeliveries } from '../webhooks/webhook-outbox.ts';
import { endSessionsOfOldPassword } from './end-sessions-of-old-password.ts';

export const USER_NOT_FOUND = 'User not found';

export interface AppUserIds {
  applicationId: number;
  userId: string;
}

/** The users' application is this one, and it belongs to the signed-in owner. */
function isOwnedApplication(ctx: OwnerContext, applicationId: number) {
  return inArray(
    appUsers.applicationId,
    ctx.db
      .select({ id: applications.id })
      .from(applications)
      .where(
        and(eq(applications.id, applicationId), eq(applications.ownerAccountId, ctx.account.id)),
      ),
  );
}

/**
 * The condition every statement on one end user carries: the user, in that application,
 * and that application belongs to the signed-in owner. Scoping lives here, in the query,
 * so no verb can reach another owner's user by forgetting a check.
 */
export function ownedAppUserWhere(ctx: OwnerContext, ids: AppUserIds) {
  return and(
    eq(appUsers.id, ids.userId),
    eq(appUsers.applicationId, ids.applicationId),
    isOwnedApplication(ctx, ids.applicationId),
  );
}

/**
 * The same scoping for many users of one application at once (a bulk action's batch): only
 * the named users of that application, and only if it is the signed-in owner's.
 */
export function ownedAppUsersWhere(
  ctx: OwnerContext,
  input: { applicationId: number; userIds: string[] },
) {
  return and(
    inArray(appUsers.id, input.userIds),
    eq(appUsers.applicationId, input.applicationId),
    isOwnedApplication(ctx, input.applicationId),
  );
}

/**
 * The rule of every owner change of end users, one or a batch: a user it leaves paused,
 * inactive or expired loses their open client sessions in the change's own transaction, so
 * the owner's action takes effect at once, not at the client's next login.
 */
export async function endSessionsOutOfStanding(
  tx: Database,
  users: Pick<AppUser, 'id' | 'isActive' | 'isPaused' | 'expiresAt'>[],
  now: Date,
): Promise<void> {
  const userIds = users.filter((user) => !isInGoodStanding(user, now)).map((user) => user.id);
  if (userIds.length === 0) return;
  await endSessionsWithDeliveries(tx, inArray(appUserSessions.appUserId, userIds), 'owner', now);
}

/** The 404 to give when a scoped statement matched nothing: which of the two is missing. */
export async function appUserNotFound(ctx: OwnerContext, ids: AppUserIds): Promise<AppError> {
  // Throws 'Application not found' itself when the application is not the owner's.
  await loadOwnedApplication({ ctx, input: { applicationId: ids.applicationId } });
  return notFound(USER_NOT_FOUND);
}

const USERNAME_INDEX = 'app_users_application_username_idx';

/**
 * A failed write as the owner should see it: a taken username is a 409; anything else is
 * rethrown without the statement's parameters, which can include a password hash.
 */
export function toAppUserWriteError(error: unknown): Error {
  if (error instanceof AppError) return error;
  if (isUniqueViolation(error, USERNAME_INDEX)) return new AppError('CONFLICT', USERNAME_TAKEN);
  return redactDatabaseError(error);
}

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
  values: Partial<typeof appUsers.$inferInsert>,
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

/** What a verb that changes or deletes an end user needs: the owner, and where to announce it. */
export type EndUserChangeContext = OwnerContext & { applicationEvents: ApplicationEvents };

/**
 * After the change is committed: caches of the user's standing (verify's) drop it, here at
 * once and in the other instances by the time the promise settles (await it before answering).
 */
export function announceEndUserChange(ctx: EndUserChangeContext, ids: AppUserIds): Promise<void> {
  return ctx.applicationEvents.emitChange(
    { kind: 'end-user-changed', applicationId: ids.applicationId, userId: ids.userId },
    ctx.log,
  );
}

/**
 * announceEndUserChange for a batch of users of one application (a bulk action): one change,
 * which share-application-changes.ts carries to the other instances in a few NOTIFYs.
 */
export function announceEndUsersChange(
  ctx: EndUserChangeContext,
  input: { applicationId: number; userIds: string[] },
): Promise<void> {
  if (input.userIds.length === 0) return Promise.resolve();
  return ctx.applicationEvents.emitChange(
    { kind: 'end-users-changed', applicationId: input.applicationId, userIds: input.userIds },
    ctx.log,
  );
}
