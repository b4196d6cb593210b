import { setTimeout as sleep } from 'node:timers/promises';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import { IDEMPOTENCY_WINDOW_MS } from '@latchkey/contracts';
import type { DatabaseConnection } from '../../db/client.ts';
import {
  activityDayCounts,
  activityHourlyCounts,
  activityLogs,
  appFiles,
  applications,
  liveSessionSamples,
  sessionStartHourlyCounts,
  appUserSessions,
  endUserTokens,
  expiryReminders,
  idempotencyKeys,
  meterIncrements,
  seatLeases,
  mailMessages,
  portalSessions,
  keyauthSessions,
  webhookDeliveries,
  webhooks,
} from '../../db/schema/index.ts';
import type { Context } from '../../http/request-context.ts';
import { foldCounterDeltas } from '../activity/index.ts';
import { CHART_HISTORY_MS } from '../activity-charts/index.ts';
import { endSessionsWithDeliveries } from '../../outbox/end-sessions.ts';
import {
  createActivityLogPartitions,
  activityLogPartitionDays,
  dropExpiredActivityLogPartitions,
} from './activity-log-partitions.ts';
import { deleteStaleActivityLogTerms } from './stale-activity-log-terms.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** An upload still incomplete this long after it started was abandoned (a crash mid-upload). */
export const INCOMPLETE_UPLOAD_MS = 60 * 60 * 1000;

/** Arbitrary but fixed: every instance must ask for the same advisory lock. */
export const RETENTION_SWEEP_LOCK_KEY = 0x4c4b5357;

export interface RetentionPolicy {
  /** Ended sessions older than this go; open ones silent this long are ended first. */
  sessionMs: number;
  activityLogMs: number;
  /** Rows per statement: each statement is its own short transaction, so locks stay short. */
  batchSize: number;
  /** Breathing room between statements for the requests the sweep shares the database with. */
  pauseMs: number;
}

export interface SweepResult {
  sessionsEnded: number;
  sessionsDeleted: number;
  activityLogsDeleted: number;
  /** Partitions of the activity log made ahead, and dropped past retention (their rows are
   * counted in activityLogsDeleted). */
  activityLogPartitionsMade: number;
  activityLogPartitionsDropped: number;
  /** Search terms whose every log row is gone (activity_log_terms). */
  activityLogTermsDeleted: number;
  /** Sent or failed deliveries created longer ago than the activity log retention. */
  webhookDeliveriesDeleted: number;
  /** End-user portal sessions past their expiry. */
  portalSessionsDeleted: number;
  /** Sessions of the KeyAuth-compatible API past their expiry. */
  keyauthSessionsDeleted: number;
  /** Rows of the activity charts' buckets and samples no longer needed. */
  chartBucketsDeleted: number;
  /** Uploads that never completed (a crash mid-upload), an hour after they started. */
  incompleteUploadsDeleted: number;
  /** Idempotency keys of the management API past their 24 hours. */
  idempotencyKeysDeleted: number;
  /** Usage meter increments remembered past their 24 hours (their keys count once within them). */
  meterIncrementsDeleted: number;
  /** Floating seat leases that lapsed (they hold nothing; kept a day for the owner's eye). */
  seatLeasesDeleted: number;
  /** Mailed links (reset tokens) past their expiry, used or not. */
  endUserTokensDeleted: number;
  /** Sent or failed mail created longer ago than the activity log retention. */
  mailMessagesDeleted: number;
  /** Records of expiry reminders whose period has ended (the sweep never looks back). */
  expiryRemindersDeleted: number;
  /** UPDATE or DELETE statements run per kind of row, so a test can see that batches stay bounded. */
  statements: {
    sessionsEnded: number;
    sessionsDeleted: number;
    activityLogsDeleted: number;
    webhookDeliveriesDeleted: number;
    portalSessionsDeleted: number;
    keyauthSessionsDeleted: number;
    idempotencyKeysDeleted: number;
    meterIncrementsDeleted: number;
    seatLeasesDeleted: number;
    endUserTokensDeleted: number;
    mailMessagesDeleted: number;
    expiryRemindersDeleted: number;
  };
}

/**
 * Ends sessions silent for longer than the session retention ('idle'), then deletes ended
 * sessions, activity log rows and finished webhook deliveries older than their retention, a
 * batch per statement. Only
 * one instance sweeps at a time: null when another holds the sweep lock. `shouldStop` is
 * asked between statements, so a shutdown does not wait for a long sweep.
 */
export async function sweepExpiredRows({
  ctx,
  input,
}: {
  ctx: Context & { database: Pick<DatabaseConnection, 'runExclusively'> };
  input: RetentionPolicy & { shouldStop?: () => boolean };
}): Promise<SweepResult | null> {
  const result: SweepResult = {
    sessionsEnded: 0,
    sessionsDeleted: 0,
    activityLogsDeleted: 0,
    activityLogPartitionsMade: 0,
    activityLogPartitionsDropped: 0,
    activityLogTermsDeleted: 0,
    webhookDeliveriesDeleted: 0,
    portalSessionsDeleted: 0,
    keyauthSessionsDeleted: 0,
    chartBucketsDeleted: 0,
    incompleteUploadsDeleted: 0,
    idempotencyKeysDeleted: 0,
    meterIncrementsDeleted: 0,
    seatLeasesDeleted: 0,
    endUserTokensDeleted: 0,
    mailMessagesDeleted: 0,
    expiryRemindersDeleted: 0,
    statements: {
      sessionsEnded: 0,
      sessionsDeleted: 0,
      activityLogsDeleted: 0,
      webhookDeliveriesDeleted: 0,
      portalSessionsDeleted: 0,
      keyauthSessionsDeleted: 0,
      idempotencyKeysDeleted: 0,
      meterIncrementsDeleted: 0,
      seatLeasesDeleted: 0,
      endUserTokensDeleted: 0,
      mailMessagesDeleted: 0,
      expiryRemindersDeleted: 0,
    },
  };
  const ran = await ctx.database.runExclusively(RETENTION_SWEEP_LOCK_KEY, async () => {
    const now = ctx.clock.now();
    const sessionCutoff = new Date(now.getTime() - input.sessionMs);
    const activityCutoff = new Date(now.getTime() - input.activityLogMs);
    const { db } = ctx;

    /** Runs one batch statement after another until a batch comes back short. */
    const inBatches = async (
      kind: keyof SweepResult['statements'],
      statement: () => Promise<number>,
    ): Promise<number> => {
      let total = 0;
      for (;;) {
        if (input.shouldStop?.()) return total;
        const affected = await statement();
        result.statements[kind] += 1;
        total += affected;
        if (affected < input.batchSize) return total;
        if (input.pauseMs > 0) await sleep(input.pauseMs);
      }
    };

    // Open sessions are few (the live ones) and found through the open-sessions index;
    // last_heartbeat_at is in no index on purpose (heartbeats stay HOT updates).
    result.sessionsEnded = await inBatches('sessionsEnded', async () => {
      const silent = db
        .select({ id: appUserSessions.id })
        .from(appUserSessions)
        .where(
          and(isNull(appUserSessions.endedAt), lt(appUserSessions.lastHeartbeatAt, sessionCutoff)),
        )
        .limit(input.batchSize);
      // Not announced to the client API's session cache: it keeps no session silent for
      // anywhere near this long (session-lookup.ts).
      const ended = await endSessionsWithDeliveries(
        db,
        inArray(appUserSessions.id, silent),
        'idle',
        now,
      );
      return ended.length;
    });

    // Expired portal sessions: nothing reads them again (the lookup checks expires_at).
    result.portalSessionsDeleted = await inBatches('portalSessionsDeleted', async () => {
      const expired = db
        .select({ id: portalSessions.id })
        .from(portalSessions)
        .where(lt(portalSessions.expiresAt, now))
        .orderBy(asc(portalSessions.expiresAt))
        .limit(input.batchSize);
      const deleted = await db
        .delete(portalSessions)
        .where(inArray(portalSessions.id, expired))
        .returning({ id: portalSessions.id });
      return deleted.length;
    });

    // Expired KeyAuth sessions: their lookup checks expires_at, so nothing reads them again.
    result.keyauthSessionsDeleted = await inBatches('keyauthSessionsDeleted', async () => {
      const expired = db
        .select({ idDigest: keyauthSessions.idDigest })
        .from(keyauthSessions)
        .where(lt(keyauthSessions.expiresAt, now))
        .orderBy(asc(keyauthSessions.expiresAt))
        .limit(input.batchSize);
      const deleted = await db
        .delete(keyauthSessions)
        .where(inArray(keyauthSessions.idDigest, expired))
        .returning({ idDigest: keyauthSessions.idDigest });
      return deleted.length;
    });

    // A mailed link past its expiry opens nothing (the reset checks expires_at).
    result.endUserTokensDeleted = await inBatches('endUserTokensDeleted', async () => {
      const expired = db
        .select({ id: endUserTokens.id })
        .from(endUserTokens)
        .where(lt(endUserTokens.expiresAt, now))
        .orderBy(asc(endUserTokens.expiresAt))
        .limit(input.batchSize);
      const deleted = await db
        .delete(endUserTokens)
        .where(inArray(endUserTokens.id, expired))
        .returning({ id: endUserTokens.id });
      return deleted.length;
    });

    // The mail log keeps what the activity log keeps; a failed message's sealed secrets go
    // with it. Oldest first through the partial index of finished messages.
    result.mailMessagesDeleted = await inBatches('mailMessagesDeleted', async () => {
      const expired = db
        .select({ id: mailMessages.id })
        .from(mailMessages)
        .where(
          and(
            sql`${mailMessages.status} in ('sent', 'failed')`,
            lt(mailMessages.createdAt, activityCutoff),
          ),
        )
        .orderBy(asc(mailMessages.createdAt))
        .limit(input.batchSize);
      const deleted = await db
        .delete(mailMessages)
        .where(inArray(mailMessages.id, expired))
        .returning({ id: mailMessages.id });
      return deleted.length;
    });

    // A reminder's record only stops a second mail for a period still to end.
    result.expiryRemindersDeleted = await inBatches('expiryRemindersDeleted', async () => {
      const ended = db
        .select({ id: expiryReminders.id })
        .from(expiryReminders)
        .where(lt(expiryReminders.endsAt, now))
        .orderBy(asc(expiryReminders.endsAt))
        .limit(input.batchSize);
      const deleted = await db
        .delete(expiryReminders)
        .where(inArray(expiryReminders.id, ended))
        .returning({ id: expiryReminders.id });
      return deleted.length;
    });

    // A kept answer outlives its 24 hours only until here: nothing replays it after them
    // (management-write.ts forgets an older key), and it may hold a sealed licence key.
    const idempotencyCutoff = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
    result.idempotencyKeysDeleted = await inBatches('idempotencyKeysDeleted', async () => {
      const expired = db
        .select({ apiTokenId: idempotencyKeys.apiTokenId, key: idempotencyKeys.key })
        .from(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, idempotencyCutoff))
        .orderBy(asc(idempotencyKeys.createdAt))
        .limit(input.batchSize);
      const deleted = await db
        .delete(idempotencyKeys)
        .where(sql`(${idempotencyKeys.apiTokenId}, ${idempotencyKeys.key}) in (${expired})`)
        .returning({ key: idempotencyKeys.key });
      return deleted.length;
    });

    // A meter increment's key counts once for 24 hours; a retry later than that is counted.
    result.meterIncrementsDeleted = await inBatches('meterIncrementsDeleted', async () => {
      const expired = db
        .select({ appUserId: meterIncrements.appUserId, key: meterIncrements.idempotencyKey })
        .from(meterIncrements)
        .where(lt(meterIncrements.createdAt, idempotencyCutoff))
        .orderBy(asc(meterIncrements.createdAt))
        .limit(input.batchSize);
      const deleted = await db
        .delete(meterIncrements)
        .where(
          sql`(${meterIncrements.appUserId}, ${meterIncrements.idempotencyKey}) in (${expired})`,
        )
        .returning({ key: meterIncrements.idempotencyKey });
      return deleted.length;
    });

    // A lapsed lease holds no seat (every count asks for expires_at ahead): gone after a day.
    result.seatLeasesDeleted = await inBatches('seatLeasesDeleted', async () => {
      const lapsed = db
        .select({ id: seatLeases.id })
        .from(seatLeases)
        .where(lt(seatLeases.expiresAt, idempotencyCutoff))
        .limit(input.batchSize);
      const deleted = await db
        .delete(seatLeases)
        .where(inArray(seatLeases.id, lapsed))
        .returning({ id: seatLeases.id });
      return deleted.length;
    });

    // Oldest first through the partial index on ended_at.
    result.sessionsDeleted = await inBatches('sessionsDeleted', async () => {
      const expired = db
        .select({ id: appUserSessions.id })
        .from(appUserSessions)
        .where(and(isNotNull(appUserSessions.endedAt), lt(appUserSessions.endedAt, sessionCutoff)))
        .orderBy(asc(appUserSessions.endedAt))
        .limit(input.batchSize);
      const deleted = await db
        .delete(appUserSessions)
        .where(inArray(appUserSessions.id, expired))
        .returning({ id: appUserSessions.id });
      return deleted.length;
    });

    // The activity log is partitioned by ranges of days, each a twelfth of the retention, and
    // keeps whole partitions: a row goes with its partition, at the first sweep after the
    // partition's end is older than the retention. An expired partition is dropped whole, its
    // counts with it; older rows that sit elsewhere (the partition of rows kept from before the
    // log was partitioned, the default one) are deleted below, one batch at a time. A partition
    // the sweep could not make or drop (a lock not had in time) waits for the next sweep: its
    // rows are not deleted one by one meanwhile.
    let logCutoff = activityCutoff;
    let isLogSweepable = true;
    try {
      result.activityLogPartitionsMade = await createActivityLogPartitions(
        db,
        now,
        activityLogPartitionDays(input.activityLogMs),
      );
    } catch (error) {
      ctx.log.warn(
        { err: error },
        'activity log partitions not made; the default one holds their rows',
      );
    }
    try {
      // A partition's rows leave the counters as it is dropped; the deltas that subtract them
      // are folded at once, so the totals are exact when the sweep ends.
      const dropped = await dropExpiredActivityLogPartitions(db, activityCutoff, input.shouldStop);
      result.activityLogPartitionsDropped = dropped.partitions;
      result.activityLogsDeleted += dropped.rows;
      logCutoff = dropped.keptFrom;
      if (dropped.partitions > 0) await foldCounterDeltas(db);
    } catch (error) {
      isLogSweepable = false;
      ctx.log.warn({ err: error }, 'expired activity log partitions not dropped; next sweep');
    }

    // Per application, so each batch is a range of the (application_id, created_at) index
    // instead of a scan of the whole log; applications are walked by id, a page at a time.
    let afterApplicationId = 0;
    while (isLogSweepable) {
      if (input.shouldStop?.()) break;
      const applicationIds = await db
        .select({ id: applications.id })
        .from(applications)
        .where(gt(applications.id, afterApplicationId))
        .orderBy(asc(applications.id))
        .limit(1000);
      for (const { id: applicationId } of applicationIds) {
        const deletedLogs = await inBatches('activityLogsDeleted', async () => {
          const expired = db
            .select({ id: activityLogs.id })
            .from(activityLogs)
            .where(
              and(
                eq(activityLogs.applicationId, applicationId),
                lt(activityLogs.createdAt, logCutoff),
              ),
            )
            .limit(input.batchSize);
          const deleted = await db
            .delete(activityLogs)
            .where(inArray(activityLogs.id, expired))
            .returning({ id: activityLogs.id });
          return deleted.length;
        });
        result.activityLogsDeleted += deletedLogs;
        // The log's hours now emptied: their buckets, once the deletions' deltas are folded,
        // are at zero and would otherwise stay forever (folded first, or a later fold would
        // leave them below zero). Only once this application's log is swept to the cutoff.
        if (input.shouldStop?.()) break;
        // Its search terms whose every row is gone, when this sweep removed rows.
        if (deletedLogs > 0 || result.activityLogPartitionsDropped > 0) {
          result.activityLogTermsDeleted += await deleteStaleActivityLogTerms(
            db,
            applicationId,
            logCutoff,
          );
        }
        if (deletedLogs > 0) await foldCounterDeltas(db);
        const emptied = await db
          .delete(activityHourlyCounts)
          .where(
            and(
              eq(activityHourlyCounts.applicationId, applicationId),
              lte(activityHourlyCounts.hour, new Date(logCutoff.getTime() - 3_600_000)),
            ),
          )
          .returning({ hour: activityHourlyCounts.hour });
        result.chartBucketsDeleted += emptied.length;
        // Likewise the day counts of the days now emptied (those of a dropped partition went
        // with it).
        await db
          .delete(activityDayCounts)
          .where(
            and(
              eq(activityDayCounts.applicationId, applicationId),
              lte(activityDayCounts.day, new Date(logCutoff.getTime() - DAY_MS)),
            ),
          );
      }
      const last = applicationIds.at(-1);
      if (!last || applicationIds.length < 1000) break;
      afterApplicationId = last.id;
    }

    // Session starts and live-session samples are history, not counts over rows: kept as
    // long as the longest chart shows them.
    const chartCutoff = new Date(now.getTime() - CHART_HISTORY_MS);
    if (!input.shouldStop?.()) {
      const [starts, samples] = await Promise.all([
        db
          .delete(sessionStartHourlyCounts)
          .where(lt(sessionStartHourlyCounts.hour, chartCutoff))
          .returning({ hour: sessionStartHourlyCounts.hour }),
        db
          .delete(liveSessionSamples)
          .where(lt(liveSessionSamples.hour, chartCutoff))
          .returning({ hour: liveSessionSamples.hour }),
      ]);
      result.chartBucketsDeleted += starts.length + samples.length;
    }

    // An upload's record is completed within the request that streams it, and deleted when
    // that request fails; one left incomplete an hour on had its process die under it. Its
    // chunks go with it (cascade). Few rows, through the partial index on incomplete uploads;
    // one at a time, since a row may hold a gigabyte of chunks.
    if (!input.shouldStop?.()) {
      const abandonedBefore = new Date(now.getTime() - INCOMPLETE_UPLOAD_MS);
      for (;;) {
        if (input.shouldStop?.()) break;
        const abandoned = db
          .select({ id: appFiles.id })
          .from(appFiles)
          .where(and(eq(appFiles.isComplete, false), lt(appFiles.createdAt, abandonedBefore)))
          .limit(1);
        const deleted = await db
          .delete(appFiles)
          .where(inArray(appFiles.id, abandoned))
          .returning({ id: appFiles.id });
        result.incompleteUploadsDeleted += deleted.length;
        if (deleted.length === 0) break;
        if (input.pauseMs > 0) await sleep(input.pauseMs);
      }
    }

    // Webhook deliveries live as long as the activity they report, once they are done
    // (a pending one is kept until it is sent or fails for good). Per webhook, so each batch
    // is a range of the (webhook_id, created_at) index.
    let afterWebhookId = 0;
    for (;;) {
      if (input.shouldStop?.()) break;
      const webhookIds = await db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(gt(webhooks.id, afterWebhookId))
        .orderBy(asc(webhooks.id))
        .limit(1000);
      for (const { id: webhookId } of webhookIds) {
        result.webhookDeliveriesDeleted += await inBatches('webhookDeliveriesDeleted', async () => {
          const expired = db
            .select({ id: webhookDeliveries.id })
            .from(webhookDeliveries)
            .where(
              and(
                eq(webhookDeliveries.webhookId, webhookId),
                lt(webhookDeliveries.createdAt, activityCutoff),
                ne(webhookDeliveries.status, 'pending'),
              ),
            )
            .limit(input.batchSize);
          const deleted = await db
            .delete(webhookDeliveries)
            .where(inArray(webhookDeliveries.id, expired))
            .returning({ id: webhookDeliveries.id });
          return deleted.length;
        });
      }
      const last = webhookIds.at(-1);
      if (!last || webhookIds.length < 1000) break;
      afterWebhookId = last.id;
    }
  });
  if (!ran) return null;
  const changed =
    result.sessionsEnded +
    result.sessionsDeleted +
    result.activityLogsDeleted +
    result.webhookDeliveriesDeleted;
  if (changed > 0) ctx.log.info({ retention: result }, 'retention sweep done');
  return result;
}
