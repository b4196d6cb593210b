import { and, eq, inArray } from 'drizzle-orm';
import { applications, appUsers } from '../db/schema/index.ts';
import type { ApplicationEvents } from '../events/application-events.ts';
import type { OwnerContext } from '../http/request-context.ts';
import { notFound, type AppError } from '../lib/errors.ts';
import { loadOwnedApplication } from './load-owned-application.ts';

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

/** The 404 to give when a scoped statement matched nothing: which of the two is missing. */
export async function appUserNotFound(ctx: OwnerContext, ids: AppUserIds): Promise<AppError> {
  // Throws 'Application not found' itself when the application is not the owner's.
  await loadOwnedApplication({ ctx, input: { applicationId: ids.applicationId } });
  return notFound(USER_NOT_FOUND);
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
