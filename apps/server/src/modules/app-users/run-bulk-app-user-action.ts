import { and, asc, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import {
  bulkAppUserLimits,
  type BulkAppUserAction,
  type BulkAppUserInput,
  type BulkAppUserResult,
  type BulkProgress,
  type BulkSkipReason,
} from '@latchkey/contracts';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { writeActivityRows } from '../activity/index.ts';
import { recordBulkActionAuditEntry } from '../admin/index.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { noteDeviceEvents, type DeviceChangeContext, releaseDevices } from '../devices/index.ts';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';
import { appUserSearchWhere } from './list-app-users.ts';
import { announceEndUsersChange, ownedAppUsersWhere } from '../../ownership/owned-app-user.ts';
import { endSessionsOutOfStanding } from './end-sessions-out-of-standing.ts';
import { toAppUserWriteError } from './to-app-user-write-error.ts';

/** What a bulk action needs: a device-changing owner verb's context, and the console's events. */
export type BulkAppUserContext = DeviceChangeContext & {
  ownerEvents: Pick<OwnerEventHub, 'publish'>;
};

/**
 * An owner's action on many of their end users at once: the users named, or every
 * user the list shows for a search. The ids are chosen first, ordered by id, so deleting or
 * changing users cannot shift a later batch past some of them (no paging). Then, per batch of
 * at most 1,000, one transaction applies the same rule as the single-user action (sessions
 * ended by endSessionsOutOfStanding, devices released by releaseDevices), writes one
 * `owner_bulk_action` activity row per user changed and one audit entry; after each commit
 * the caches of those users are dropped on every instance and the owner's consoles are told
 * the progress.
 *
 * The request answers when every batch is done: the answer acknowledges what was written. A
 * batch committed stays committed if the connection drops or a later batch fails; a failure
 * is reported with the counts so far (the last progress event carries the error).
 */
export async function runBulkAppUserAction({
  ctx,
  input,
}: {
  ctx: BulkAppUserContext;
  input: BulkAppUserInput & { applicationId: number };
}): Promise<BulkAppUserResult> {
  const application = await loadOwnedApplication({ ctx, input });
  const userIds = await selectUserIds(ctx, application.id, input);
  const reasons = new Map<BulkSkipReason, number>();
  const progress: BulkProgress = {
    operationId: input.operationId,
    applicationId: application.id,
    action: input.action,
    total: userIds.length,
    done: 0,
    skipped: 0,
    isFinished: false,
    error: null,
  };
  const publishProgress = () =>
    ctx.ownerEvents.publish(ctx.account.id, { type: 'bulk_progress', data: { ...progress } });

  for (let start = 0; start < userIds.length; start += bulkAppUserLimits.batchSize) {
    const batch = userIds.slice(start, start + bulkAppUserLimits.batchSize);
    let outcome: BatchOutcome;
    try {
      outcome = await applyBatch(ctx, { ...input, applicationId: application.id }, batch);
    } catch (error) {
      progress.isFinished = true;
      progress.error = 'The bulk action stopped on an error; the batches before it are done.';
      await publishProgress();
      throw toAppUserWriteError(error);
    }
    noteDeviceEvents(ctx, outcome.written);
    await announceEndUsersChange(ctx, {
      applicationId: application.id,
      userIds: outcome.changedIds,
    });
    progress.done += outcome.changedIds.length;
    for (const reason of outcome.skipped) {
      progress.skipped += 1;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    if (outcome.changedIds.length > 0) {
      await ctx.ownerEvents.publish(ctx.account.id, {
        type: 'app_user',
        data: {
          applicationId: application.id,
          userId: null,
          change: input.action === 'delete' ? 'deleted' : 'updated',
        },
      });
    }
    await publishProgress();
  }
  progress.isFinished = true;
  await publishProgress();
  return {
    operationId: input.operationId,
    action: input.action,
    total: progress.total,
    done: progress.done,
    skipped: progress.skipped,
    skippedReasons: [...reasons].map(([reason, count]) => ({ reason, count })),
  };
}

/** The users in scope, by id: named ones deduplicated, or all the search matches in the app. */
async function selectUserIds(
  ctx: BulkAppUserContext,
  applicationId: number,
  input: BulkAppUserInput,
): Promise<string[]> {
  if (input.userIds) return [...new Set(input.userIds.map((id) => id.toLowerCase()))].sort();
  const search = input.matching?.search;
  const rows = await ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(
      and(
        eq(appUsers.applicationId, applicationId),
        search ? appUserSearchWhere(search) : undefined,
      ),
    )
    .orderBy(asc(appUsers.id));
  return rows.map((row) => row.id);
}

interface BatchOutcome {
  changedIds: string[];
  skipped: BulkSkipReason[];
  /** Activity rows written (device releases and the bulk rows), for the recorder once committed. */
  written: { records: ActivityRecord[]; queuedDeliveries: number };
}

/** Which users of the batch the action changes, and why it leaves the others. */
function skipReason(user: AppUser, input: BulkAppUserInput): BulkSkipReason | null {
  switch (input.action) {
    case 'pause':
      return user.isPaused ? 'already_paused' : null;
    case 'unpause':
      return user.isPaused ? null : 'not_paused';
    case 'set_expiry':
      return (user.expiresAt?.getTime() ?? null) === (input.expiresAt?.getTime() ?? null)
        ? 'same_expiry'
        : null;
    case 'extend':
      return user.expiresAt === null ? 'never_expires' : null;
    case 'reset_hwid':
      return user.deviceCount === 0 && user.hwid === null ? 'no_hwid' : null;
    case 'delete':
      return null;
  }
}

async function applyBatch(
  ctx: BulkAppUserContext,
  input: BulkAppUserInput & { applicationId: number },
  batch: string[],
): Promise<BatchOutcome> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    // Locked as the single-user verbs lock them: a login binding a device waits for us.
    const users = await tx
      .select()
      .from(appUsers)
      .where(ownedAppUsersWhere(txCtx, { applicationId: input.applicationId, userIds: batch }))
      .orderBy(asc(appUsers.id))
      .for('update', { of: appUsers });
    const found = new Set(users.map((user) => user.id));
    const skipped: BulkSkipReason[] = batch
      .filter((id) => !found.has(id))
      .map(() => 'not_found' as const);
    const targets: AppUser[] = [];
    for (const user of users) {
      const reason = skipReason(user, input);
      if (reason) skipped.push(reason);
      else targets.push(user);
    }
    const written = { records: [] as ActivityRecord[], queuedDeliveries: 0 };
    if (targets.length === 0) return { changedIds: [], skipped, written };
    const targetIds = targets.map((user) => user.id);
    const ofTargets = ownedAppUsersWhere(txCtx, {
      applicationId: input.applicationId,
      userIds: targetIds,
    });

    if (input.action === 'reset_hwid') {
      for (const user of targets) {
        const released = await releaseDevices(tx, {
          applicationId: input.applicationId,
          appUserId: user.id,
          username: user.username,
          which: 'all',
          releasedBy: 'owner',
          ipAddress: null,
          now,
        });
        written.records.push(...released.records);
        written.queuedDeliveries += released.queuedDeliveries;
      }
    }
    // Written before a deletion, so each row still names its user (then set null by the FK).
    const records = targets.map((user) => bulkActionRecord(user, input, now));
    written.queuedDeliveries += await writeActivityRows(tx, records);
    written.records.push(...records);

    if (input.action === 'delete') {
      // Their sessions and devices go with them (cascade), as with the single-user delete.
      await tx.delete(appUsers).where(ofTargets);
    } else {
      const updated = await tx
        .update(appUsers)
        .set({ ...changedValues(input, now), updatedAt: now })
        .where(ofTargets)
        .returning();
      await endSessionsOutOfStanding(tx, updated, now);
    }
    await recordBulkActionAuditEntry({
      ctx: txCtx,
      input: {
        operationId: input.operationId,
        applicationId: input.applicationId,
        action: input.action,
        userCount: targets.length,
      },
    });
    return { changedIds: targetIds, skipped, written };
  });
}

/** The columns the action sets; reset_hwid's summary was refreshed by releaseDevices. */
function changedValues(input: BulkAppUserInput, now: Date): PgUpdateSetSource<typeof appUsers> {
  switch (input.action) {
    case 'pause':
      return { isPaused: true };
    case 'unpause':
      return { isPaused: false };
    case 'set_expiry':
      return { expiresAt: input.expiresAt ?? null };
    case 'extend':
      // From the later of the current expiry and now: an expired user gets `days` from today.
      return {
        expiresAt: sql`greatest(${appUsers.expiresAt}, ${now.toISOString()}::timestamptz) + make_interval(days => ${input.days ?? 0})`,
      };
    case 'reset_hwid':
    case 'delete':
      return {};
  }
}

function bulkActionRecord(user: AppUser, input: BulkAppUserInput, now: Date): ActivityRecord {
  return {
    applicationId: user.applicationId,
    appUserId: user.id,
    username: user.username,
    event: 'owner_bulk_action',
    success: true,
    ipAddress: null,
    errorMessage: null,
    metadata: {
      action: input.action satisfies BulkAppUserAction,
      operationId: input.operationId,
      ...(input.action === 'set_expiry'
        ? { expiresAt: input.expiresAt?.toISOString() ?? null }
        : {}),
      ...(input.action === 'extend' ? { days: input.days } : {}),
      code: 'OK',
    },
    createdAt: now,
  };
}
