import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityChartSchema, activityEventNames, type ActivityChart } from '@latchkey/contracts';
import {
  activityHourlyCounts,
  activityLogs,
  applications,
  appUserSessions,
  liveSessionSamples,
  sessionStartHourlyCounts,
} from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { insertApplication, insertAppUser, insertAppUserSession } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { type SignedInOwner } from '../../../test/test-app.ts';
import { foldCounterDeltas } from '../activity/index.ts';
import { sweepExpiredRows } from '../retention/sweep-expired-rows.ts';
import { sampleLiveSessions } from './sample-live-sessions.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const now = new Date('2026-06-10T12:30:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * HOUR_MS);

/**
 * The charts' buckets (migration 0019) must always equal a count over the rows that exist:
 * the charts read nothing else.
 */
describe('activity charts', () => {
  const clock = createManualClock(now);

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);
  const otherOwner = signInOwnerForSuite(testApp);

  const db = () => testApp.database.db;

  /** (hour, event) -> rows, from the buckets once folded (those not at zero). */
  const keptBuckets = async (applicationId: number) => {
    await foldCounterDeltas(db());
    const rows = await db()
      .select({
        hour: activityHourlyCounts.hour,
        event: activityHourlyCounts.event,
        count: sql<number>`${activityHourlyCounts.rowCount}::int`,
      })
      .from(activityHourlyCounts)
      .where(eq(activityHourlyCounts.applicationId, applicationId));
    return Object.fromEntries(
      rows
        .filter((row) => row.count !== 0)
        .map((row) => [`${row.hour.toISOString()} ${row.event}`, row.count]),
    );
  };
  /** The same, counted over the log's rows in JavaScript (UTC hours). */
  const countedDirectly = async (applicationId: number) => {
    const rows = await db()
      .select({ event: activityLogs.event, createdAt: activityLogs.createdAt })
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, applicationId));
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const hour = new Date(Math.floor(row.createdAt.getTime() / HOUR_MS) * HOUR_MS);
      const key = `${hour.toISOString()} ${row.event}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };
  const logRows = (applicationId: number, count: number, offsetHours = 0) =>
    Array.from({ length: count }, (_, index) => ({
      applicationId,
      event: activityEventNames[index % activityEventNames.length]!,
      success: index % 3 !== 0,
      // Spread over three days, some in the same hour, at minutes that are not on the hour.
      createdAt: new Date(
        now.getTime() - ((index * 7 + offsetHours) % 72) * HOUR_MS - index * 1000,
      ),
    }));

  const chart = async (
    who: SignedInOwner,
    url: string,
  ): Promise<{ status: number; body: ActivityChart }> => {
    const response = await testApp.app.inject({ url, headers: who.headers });
    return { status: response.statusCode, body: response.json() };
  };

  it('keeps hourly buckets equal to a count over the log after inserts and deletes', async () => {
    const application = await insertApplication(db(), owner.accountId);
    const rows = logRows(application.id, 60);
    await db().insert(activityLogs).values(rows);
    for (const row of rows.slice(0, 9)) await db().insert(activityLogs).values(row);
    const direct = await countedDirectly(application.id);
    expect(Object.keys(direct).length).toBeGreaterThan(20);
    expect(await keptBuckets(application.id)).toEqual(direct);

    await db().execute(
      sql`delete from activity_logs where id in (select id from activity_logs where application_id = ${application.id} order by id limit 25)`,
    );
    expect(await keptBuckets(application.id)).toEqual(await countedDirectly(application.id));
  });

  it('stays equal after the retention sweep, which also drops the buckets of the hours it emptied', async () => {
    const application = await insertApplication(db(), owner.accountId);
    await db().insert(activityLogs).values(logRows(application.id, 50));
    const result = await sweepExpiredRows({
      ctx: { db: db(), database: testApp.database, clock, log: testApp.app.log },
      input: { sessionMs: 30 * DAY_MS, activityLogMs: 36 * HOUR_MS, batchSize: 7, pauseMs: 0 },
    });
    expect(result?.activityLogsDeleted).toBeGreaterThan(0);
    expect(result?.chartBucketsDeleted).toBeGreaterThan(0);
    const remaining = await countedDirectly(application.id);
    expect(Object.keys(remaining).length).toBeGreaterThan(0);
    expect(await keptBuckets(application.id)).toEqual(remaining);
    // No bucket row is left for an hour wholly before the cutoff.
    const [oldest] = await db()
      .select({ hour: sql<string>`min(${activityHourlyCounts.hour})::text` })
      .from(activityHourlyCounts)
      .where(eq(activityHourlyCounts.applicationId, application.id));
    expect(new Date(oldest!.hour).getTime()).toBeGreaterThan(hoursAgo(37).getTime());
  });

  it('stays equal under concurrent writers and deleters', async () => {
    const application = await insertApplication(db(), owner.accountId);
    // On PostgreSQL these run on several connections at once, taking the same rows' locks.
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        index % 4 === 3
          ? db().execute(
              sql`delete from activity_logs where id in (select id from activity_logs where application_id = ${application.id} order by id limit 3)`,
            )
          : db()
              .insert(activityLogs)
              .values(logRows(application.id, 10 + index, index).reverse()),
      ),
    );
    expect(await keptBuckets(application.id)).toEqual(await countedDirectly(application.id));
  });

  it('counts session starts once: not heartbeats, not a start retried with the same token', async () => {
    const application = await insertApplication(db(), owner.accountId);
    const user = await insertAppUser(db(), application.id);
    const session = await insertAppUserSession(db(), {
      applicationId: application.id,
      appUserId: user.id,
      lastHeartbeatAt: now,
    });
    await insertAppUserSession(db(), {
      applicationId: application.id,
      appUserId: user.id,
      lastHeartbeatAt: now,
    });
    await db()
      .update(appUserSessions)
      .set({ lastHeartbeatAt: new Date(now.getTime() + 1000) })
      .where(eq(appUserSessions.id, session.id));
    await db()
      .insert(appUserSessions)
      .values({
        applicationId: application.id,
        appUserId: user.id,
        tokenHash: session.tokenHash,
        lastHeartbeatAt: now,
      })
      .onConflictDoUpdate({
        target: [appUserSessions.applicationId, appUserSessions.tokenHash],
        set: { lastHeartbeatAt: sql`excluded.last_heartbeat_at` },
      });
    await foldCounterDeltas(db());
    const [kept] = await db()
      .select({ count: sql<number>`sum(${sessionStartHourlyCounts.sessionCount})::int` })
      .from(sessionStartHourlyCounts)
      .where(eq(sessionStartHourlyCounts.applicationId, application.id));
    expect(kept?.count).toBe(2);
  });

  it('answers every hour of the last 24, zero-filled, with the series from the buckets', async () => {
    const application = await insertApplication(db(), owner.accountId);
    const user = await insertAppUser(db(), application.id);
    const at = (hours: number, event: string, count = 1) =>
      Array.from({ length: count }, () => ({
        applicationId: application.id,
        event,
        success: event === 'user_login',
        createdAt: hoursAgo(hours),
      }));
    await db()
      .insert(activityLogs)
      .values([
        ...at(0, 'user_login', 3),
        ...at(0, 'login_failed', 2),
        ...at(0, 'hwid_mismatch'),
        ...at(2, 'user_register', 4),
        ...at(2, 'device_added', 5), // not charted
        ...at(30, 'user_login', 7), // before the last 24 hours, inside 7 days
      ]);
    await db()
      .insert(appUserSessions)
      .values([
        {
          applicationId: application.id,
          appUserId: user.id,
          tokenHash: 'a',
          startedAt: hoursAgo(1),
        },
        {
          applicationId: application.id,
          appUserId: user.id,
          tokenHash: 'b',
          startedAt: hoursAgo(1),
        },
      ]);
    await db()
      .insert(liveSessionSamples)
      .values({
        applicationId: application.id,
        hour: new Date('2026-06-10T11:00:00Z'),
        liveSessions: 6,
      });

    const { status, body } = await chart(
      owner,
      `/api/applications/${application.id}/activity-chart`,
    );
    expect(status).toBe(200);
    expect(activityChartSchema.parse(body)).toEqual(body);
    expect(body.range).toBe('24h');
    expect(body.bucket).toBe('hour');
    expect(body.points).toHaveLength(24);
    expect(body.points[0]!.start).toBe('2026-06-09T13:00:00.000Z');
    expect(body.points.at(-1)).toEqual({
      start: '2026-06-10T12:00:00.000Z',
      logins: 3,
      failedLogins: 3,
      registrations: 0,
      newSessions: 0,
      liveSessions: 0,
    });
    expect(body.points.at(-2)).toMatchObject({ newSessions: 2, liveSessions: 6 });
    expect(body.points.at(-3)).toMatchObject({ registrations: 4, logins: 0 });
    const totals = body.points.reduce((sum, point) => sum + point.logins, 0);
    expect(totals).toBe(3);

    const week = await chart(owner, `/api/applications/${application.id}/activity-chart?range=7d`);
    expect(week.body.bucket).toBe('day');
    expect(week.body.points).toHaveLength(7);
    expect(week.body.points.at(-1)).toMatchObject({
      start: '2026-06-10T00:00:00.000Z',
      logins: 3,
      registrations: 4,
      newSessions: 2,
      liveSessions: 6,
    });
    expect(week.body.points.at(-2)).toMatchObject({ start: '2026-06-09T00:00:00.000Z', logins: 7 });
    const month = await chart(
      owner,
      `/api/applications/${application.id}/activity-chart?range=30d`,
    );
    expect(month.body.points).toHaveLength(30);
    expect(month.body.points[0]!.start).toBe('2026-05-12T00:00:00.000Z');
  });

  it('adds up the owner’s applications on the dashboard, and never another owner’s', async () => {
    const first = await insertApplication(db(), otherOwner.accountId);
    const second = await insertApplication(db(), otherOwner.accountId);
    const foreign = await insertApplication(db(), owner.accountId);
    const logins = (applicationId: number, count: number) =>
      Array.from({ length: count }, () => ({
        applicationId,
        event: 'user_login',
        success: true,
        createdAt: hoursAgo(5),
      }));
    await db()
      .insert(activityLogs)
      .values([...logins(first.id, 2), ...logins(second.id, 3), ...logins(foreign.id, 11)]);
    await db()
      .insert(liveSessionSamples)
      .values([
        { applicationId: first.id, hour: new Date('2026-06-10T07:00:00Z'), liveSessions: 4 },
        { applicationId: second.id, hour: new Date('2026-06-10T07:00:00Z'), liveSessions: 5 },
      ]);
    const { status, body } = await chart(otherOwner, '/api/dashboard/activity-chart?range=24h');
    expect(status).toBe(200);
    const hour = body.points.find((point) => point.start === '2026-06-10T07:00:00.000Z');
    expect(hour).toMatchObject({ logins: 5, liveSessions: 9 });
    expect(body.points.reduce((sum, point) => sum + point.logins, 0)).toBe(5);

    expect((await chart(otherOwner, `/api/applications/${foreign.id}/activity-chart`)).status).toBe(
      404,
    );
    expect((await chart(owner, '/api/dashboard/activity-chart?range=year')).status).toBe(400);
  });

  it('samples live sessions, keeping each hour’s highest', async () => {
    const application = await insertApplication(db(), owner.accountId);
    const user = await insertAppUser(db(), application.id);
    const sessions = await Promise.all(
      [0, 1, 2].map(() =>
        insertAppUserSession(db(), {
          applicationId: application.id,
          appUserId: user.id,
          lastHeartbeatAt: now,
        }),
      ),
    );
    // Silent for longer than the live window: not live.
    await insertAppUserSession(db(), {
      applicationId: application.id,
      appUserId: user.id,
      lastHeartbeatAt: hoursAgo(1),
    });
    const sample = () =>
      sampleLiveSessions({
        ctx: { db: db(), database: testApp.database, clock, log: testApp.app.log },
      });
    const peak = async () => {
      const [row] = await db()
        .select()
        .from(liveSessionSamples)
        .where(eq(liveSessionSamples.applicationId, application.id));
      return row?.liveSessions;
    };
    expect(await sample()).toBeGreaterThan(0);
    expect(await peak()).toBe(3);
    await db()
      .update(appUserSessions)
      .set({ endedAt: now })
      .where(eq(appUserSessions.id, sessions[0]!.id));
    await sample();
    expect(await peak()).toBe(3);
  });

  it('go with their application', async () => {
    const application = await insertApplication(db(), owner.accountId);
    await db().insert(activityLogs).values(logRows(application.id, 10));
    await db().delete(applications).where(eq(applications.id, application.id));
    expect(await keptBuckets(application.id)).toEqual({});
  });
});
