import { count, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  activityLogs,
  applications,
  appUserSessions,
  endUserTokens,
  keyauthSessions,
  expiryReminders,
  idempotencyKeys,
  meterIncrements,
  seatLeases,
  mailMessages,
  portalSessions,
  webhookDeliveries,
} from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  createApiTokenViaApi,
  insertActivityLog,
  insertAppUser,
  insertWebhookDelivery,
  insertAppUserSession,
  insertApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { insertTestWebhook } from '../../../test/webhook-test-receiver.ts';
import { sweepExpiredRows, type RetentionPolicy } from './sweep-expired-rows.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const now = new Date('2026-06-01T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);

describe('sweepExpiredRows', () => {
  let ownerAccountId: string;
  const clock = createManualClock(now);
  const policy: RetentionPolicy = {
    sessionMs: 30 * DAY_MS,
    activityLogMs: 90 * DAY_MS,
    batchSize: 1000,
    pauseMs: 0,
  };

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    ownerAccountId = owner.accountId;
  });

  const db = () => testApp.database.db;
  const sweep = (overrides: Partial<RetentionPolicy> = {}) =>
    sweepExpiredRows({
      ctx: { db: db(), database: testApp.database, clock, log: testApp.app.log },
      input: { ...policy, ...overrides },
    });
  const newUser = async () => {
    const application = await insertApplication(db(), ownerAccountId);
    const user = await insertAppUser(db(), application.id);
    return { applicationId: application.id, appUserId: user.id };
  };
  const sessionsById = async (ids: string[]) =>
    new Map(
      (await db().select().from(appUserSessions).where(inArray(appUserSessions.id, ids))).map(
        (row) => [row.id, row],
      ),
    );

  it('deletes old ended sessions and activity, ends long-silent sessions, keeps the rest', async () => {
    const first = await newUser();
    const second = await newUser();
    const session = (endedDaysAgo: number | null, heartbeatDaysAgo: number) =>
      insertAppUserSession(db(), {
        ...first,
        lastHeartbeatAt: daysAgo(heartbeatDaysAgo),
        endedAt: endedDaysAgo === null ? null : daysAgo(endedDaysAgo),
      });
    const endedLongAgo = await session(31, 31);
    const endedRecently = await session(29, 29);
    const silent = await session(null, 31);
    const live = await session(null, 0);
    const log = (applicationId: number, days: number) =>
      insertActivityLog(db(), {
        applicationId,
        event: 'login_success',
        success: true,
        createdAt: daysAgo(days),
      });
    const oldLogs = [await log(first.applicationId, 91), await log(second.applicationId, 400)];
    const recentLogs = [await log(first.applicationId, 89), await log(second.applicationId, 0)];

    const result = await sweep();
    expect(result).toMatchObject({ sessionsEnded: 1, sessionsDeleted: 1, activityLogsDeleted: 2 });

    const sessions = await sessionsById([endedLongAgo.id, endedRecently.id, silent.id, live.id]);
    expect(sessions.has(endedLongAgo.id)).toBe(false);
    expect(sessions.get(endedRecently.id)?.endedAt).toEqual(daysAgo(29));
    // Ended now, so it is kept for another retention period like any ended session.
    expect(sessions.get(silent.id)).toMatchObject({ endedAt: now, endReason: 'idle' });
    expect(sessions.get(live.id)).toMatchObject({ endedAt: null, endReason: null });
    const remainingLogs = await db()
      .select({ id: activityLogs.id })
      .from(activityLogs)
      .where(
        inArray(
          activityLogs.id,
          [...oldLogs, ...recentLogs].map((row) => row.id),
        ),
      );
    expect(remainingLogs.map((row) => row.id).sort()).toEqual(
      recentLogs.map((row) => row.id).sort(),
    );

    // Nothing left to do: a second sweep changes nothing.
    expect(await sweep()).toMatchObject({
      sessionsEnded: 0,
      sessionsDeleted: 0,
      activityLogsDeleted: 0,
    });
  });

  it('forgets idempotency keys past their 24 hours, two batches of one at a time', async () => {
    const { id: apiTokenId } = await createApiTokenViaApi(testApp.app, owner);
    const keyRow = (key: string, createdAt: Date) => ({
      apiTokenId,
      key,
      requestDigest: 'digest',
      status: 201,
      body: 'sealed',
      createdAt,
    });
    await db()
      .insert(idempotencyKeys)
      .values([
        keyRow('old-1', new Date(now.getTime() - DAY_MS - 1)),
        keyRow('old-2', daysAgo(3)),
        keyRow('fresh', new Date(now.getTime() - DAY_MS + 60_000)),
      ]);
    const result = await sweep({ batchSize: 1 });
    expect(result).toMatchObject({ idempotencyKeysDeleted: 2 });
    // Two full batches and the short one that says there is no more.
    expect(result!.statements.idempotencyKeysDeleted).toBe(3);
    const left = await db()
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.apiTokenId, apiTokenId));
    expect(left).toEqual([{ key: 'fresh' }]);
  });

  it('forgets usage meter increments past their 24 hours', async () => {
    const { appUserId } = await newUser();
    const increment = (idempotencyKey: string, createdAt: Date) => ({
      appUserId,
      idempotencyKey,
      meterName: 'exports',
      amount: 1,
      usedAfter: 1,
      periodStart: createdAt,
      createdAt,
    });
    await db()
      .insert(meterIncrements)
      .values([
        increment('old', new Date(now.getTime() - DAY_MS - 1)),
        increment('fresh', new Date(now.getTime() - DAY_MS + 60_000)),
      ]);
    expect(await sweep()).toMatchObject({ meterIncrementsDeleted: 1 });
    const left = await db()
      .select({ key: meterIncrements.idempotencyKey })
      .from(meterIncrements)
      .where(eq(meterIncrements.appUserId, appUserId));
    expect(left).toEqual([{ key: 'fresh' }]);
  });

  it('forgets floating seat leases a day after they lapsed, and keeps the live ones', async () => {
    const { applicationId, appUserId } = await newUser();
    const lease = (tokenHash: string, expiresAt: Date) => ({
      applicationId,
      appUserId,
      tokenHash,
      hwid: null,
      leaseMinutes: 60,
      expiresAt,
      createdAt: new Date(expiresAt.getTime() - 3_600_000),
    });
    await db()
      .insert(seatLeases)
      .values([
        lease('lapsed', new Date(now.getTime() - DAY_MS - 1)),
        lease('live', new Date(now.getTime() + 60_000)),
      ]);
    expect(await sweep()).toMatchObject({ seatLeasesDeleted: 1 });
    const left = await db()
      .select({ tokenHash: seatLeases.tokenHash })
      .from(seatLeases)
      .where(eq(seatLeases.appUserId, appUserId));
    expect(left).toEqual([{ tokenHash: 'live' }]);
  });

  it('deletes expired portal sessions and keeps live ones', async () => {
    const { applicationId, appUserId } = await newUser();
    const session = (expiresAt: Date, tokenDigest: string) =>
      db()
        .insert(portalSessions)
        .values({ applicationId, appUserId, tokenDigest, expiresAt })
        .returning({ id: portalSessions.id });
    await session(new Date(now.getTime() - 1), 'expired-digest');
    const [live] = await session(new Date(now.getTime() + 60_000), 'live-digest');
    expect(await sweep()).toMatchObject({ portalSessionsDeleted: 1 });
    const left = await db()
      .select({ id: portalSessions.id })
      .from(portalSessions)
      .where(eq(portalSessions.appUserId, appUserId));
    expect(left).toEqual([live]);
  });

  it('deletes expired KeyAuth sessions and keeps live ones', async () => {
    const { applicationId } = await newUser();
    const session = (expiresAt: Date, idDigest: string) =>
      db().insert(keyauthSessions).values({ idDigest, applicationId, expiresAt });
    await session(new Date(now.getTime() - 1), `expired-${applicationId}`);
    await session(new Date(now.getTime() + 60_000), `live-${applicationId}`);
    expect(await sweep()).toMatchObject({ keyauthSessionsDeleted: 1 });
    const left = await db()
      .select({ idDigest: keyauthSessions.idDigest })
      .from(keyauthSessions)
      .where(eq(keyauthSessions.applicationId, applicationId));
    expect(left).toEqual([{ idDigest: `live-${applicationId}` }]);
  });

  it('deletes expired mailed links and finished mail past the activity retention', async () => {
    const { applicationId, appUserId } = await newUser();
    const token = (expiresAt: Date, tokenDigest: string) =>
      db()
        .insert(endUserTokens)
        .values({ applicationId, appUserId, purpose: 'password_reset', tokenDigest, expiresAt })
        .returning({ id: endUserTokens.id });
    await token(new Date(now.getTime() - 1), 'expired-link');
    const [liveLink] = await token(new Date(now.getTime() + 60_000), 'live-link');
    const mail = (status: 'sent' | 'failed' | 'retrying', days: number) =>
      db()
        .insert(mailMessages)
        .values({
          applicationId,
          appUserId,
          kind: 'password_reset',
          recipient: 'buyer@example.com',
          status,
          createdAt: daysAgo(days),
        })
        .returning({ id: mailMessages.id });
    await mail('sent', 91);
    await mail('failed', 200);
    const [stillTrying] = await mail('retrying', 91);
    const [recent] = await mail('sent', 89);

    expect(await sweep()).toMatchObject({ endUserTokensDeleted: 1, mailMessagesDeleted: 2 });
    expect(
      await db()
        .select({ id: endUserTokens.id })
        .from(endUserTokens)
        .where(eq(endUserTokens.appUserId, appUserId)),
    ).toEqual([liveLink]);
    const left = await db()
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(eq(mailMessages.applicationId, applicationId));
    expect(left.map((row) => row.id).sort()).toEqual([stillTrying!.id, recent!.id].sort());
  });

  it('deletes the records of expiry reminders whose period has ended', async () => {
    const { applicationId, appUserId } = await newUser();
    const reminder = (endsAt: Date) =>
      db()
        .insert(expiryReminders)
        .values({ applicationId, appUserId, subject: 'account', endsAt })
        .returning({ id: expiryReminders.id });
    await reminder(new Date(now.getTime() - 1));
    const [pending] = await reminder(new Date(now.getTime() + 86_400_000));
    expect(await sweep()).toMatchObject({ expiryRemindersDeleted: 1 });
    expect(
      await db()
        .select({ id: expiryReminders.id })
        .from(expiryReminders)
        .where(eq(expiryReminders.appUserId, appUserId)),
    ).toEqual([pending]);
  });

  it('deletes finished webhook deliveries older than the activity retention, never pending ones', async () => {
    const hook = await insertTestWebhook(db(), testApp.config.serverSecret, {
      ownerAccountId,
      url: 'https://receiver.example/hook',
      events: ['user_login'],
    });
    const delivery = (status: 'pending' | 'succeeded' | 'failed', days: number) =>
      insertWebhookDelivery(db(), hook.id, { status, createdAt: daysAgo(days) });
    const oldSucceeded = await delivery('succeeded', 91);
    const oldFailed = await delivery('failed', 200);
    const oldPending = await delivery('pending', 91);
    const recentSucceeded = await delivery('succeeded', 89);

    expect(await sweep()).toMatchObject({ webhookDeliveriesDeleted: 2 });
    const left = await db()
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook.id));
    expect(left.map((row) => row.id).sort()).toEqual([oldPending.id, recentSucceeded.id].sort());
    expect([oldSucceeded.id, oldFailed.id].some((id) => left.some((row) => row.id === id))).toBe(
      false,
    );
  });

  it('deletes in bounded batches: 35 rows at 10 a statement take 4 statements', async () => {
    const { applicationId, appUserId } = await newUser();
    for (let index = 0; index < 35; index += 1) {
      await insertAppUserSession(db(), {
        applicationId,
        appUserId,
        lastHeartbeatAt: daysAgo(40 + index),
        endedAt: daysAgo(40 + index),
      });
      await insertActivityLog(db(), {
        applicationId,
        event: 'login_failed',
        success: false,
        createdAt: daysAgo(100 + index),
      });
    }
    const result = await sweep({ batchSize: 10 });
    expect(result).toMatchObject({ sessionsDeleted: 35, activityLogsDeleted: 35 });
    expect(result?.statements.sessionsDeleted).toBe(4);
    // Four statements for this application's log, one (finding nothing) for every other.
    const [applicationCount] = await db().select({ value: count() }).from(applications);
    expect(result?.statements.activityLogsDeleted).toBe(applicationCount!.value - 1 + 4);
    expect(
      await db().select().from(appUserSessions).where(eq(appUserSessions.appUserId, appUserId)),
    ).toEqual([]);
  });

  it('lets only one sweep run at a time: a concurrent one does nothing', async () => {
    const { applicationId, appUserId } = await newUser();
    for (let index = 0; index < 5; index += 1) {
      await insertAppUserSession(db(), {
        applicationId,
        appUserId,
        lastHeartbeatAt: daysAgo(60),
        endedAt: daysAgo(60),
      });
    }
    // A pause between batches keeps the first sweep holding the lock while the second asks.
    const results = await Promise.all([
      sweep({ batchSize: 1, pauseMs: 20 }),
      sweep({ batchSize: 1, pauseMs: 20 }),
    ]);
    expect(results.filter((result) => result === null)).toHaveLength(1);
    expect(results.find((result) => result !== null)?.sessionsDeleted).toBe(5);
    // The lock is released: the next sweep runs.
    expect(await sweep()).not.toBeNull();
  });
  it('is started by buildApp with the configured retention, and stops with the app', async () => {
    // The same database, so the owner signed in above exists there too.
    const sweepingApp = await createTestApp({
      clock,
      database: testApp.database,
      isRetentionSweepEnabled: true,
      env: {
        SESSION_RETENTION_DAYS: '7',
        ACTIVITY_LOG_RETENTION_DAYS: '10',
        // One database, one deployment: the same secret (else the instance refuses to start).
        SERVER_SECRET: testApp.config.serverSecret,
      },
    });
    const { applicationId, appUserId } = await newUser();
    try {
      const gone = await insertAppUserSession(db(), {
        applicationId,
        appUserId,
        lastHeartbeatAt: daysAgo(8),
        endedAt: daysAgo(8),
      });
      const kept = await insertAppUserSession(db(), {
        applicationId,
        appUserId,
        lastHeartbeatAt: daysAgo(6),
        endedAt: daysAgo(6),
      });
      const oldLog = await insertActivityLog(db(), {
        applicationId,
        event: 'login_success',
        success: true,
        createdAt: daysAgo(11),
      });
      expect(sweepingApp.app.retentionSweeper).not.toBeNull();
      // 7 and 10 days here: rows the tests above kept under 30 and 90 days go too.
      const result = await sweepingApp.app.retentionSweeper!.sweepNow();
      expect(result?.sessionsDeleted).toBeGreaterThanOrEqual(1);
      expect([...(await sessionsById([gone.id, kept.id])).keys()]).toEqual([kept.id]);
      expect(await db().select().from(activityLogs).where(eq(activityLogs.id, oldLog.id))).toEqual(
        [],
      );
    } finally {
      await sweepingApp.close();
    }
    expect(await sweepingApp.app.retentionSweeper!.sweepNow()).toBeNull();
    expect(testApp.app.retentionSweeper).toBeNull();
  });
});
