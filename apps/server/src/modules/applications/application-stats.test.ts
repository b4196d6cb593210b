import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { applicationStatsSchema, dashboardStatsSchema } from '@latchkey/contracts';
import { applications } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  insertActivityLog,
  insertApplication,
  insertAppUser,
  insertAppUserSession,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';

describe('GET /api/applications/:id/stats', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const clock = createManualClock(now);
  const ago = (ms: number) => new Date(now.getTime() - ms);

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const stats = async (applicationId: number | string) => {
    const response = await testApp.app.inject({
      url: `/api/applications/${applicationId}/stats`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    return applicationStatsSchema.parse(response.json());
  };

  it('starts at zero with no activity', async () => {
    const application = await insertApplication(testApp.database.db, owner.accountId);
    expect(await stats(application.id)).toEqual({
      totalUsers: 0,
      activeUsers: 0,
      activeSessions: 0,
      totalApiRequests: 0,
      loginSuccessRate: 0,
      lastActivity: null,
      unusedLicenses: 0,
      usedLicenses: 0,
    });
  });

  it('counts users that can log in, live sessions, requests, login success and last activity', async () => {
    const db = testApp.database.db;
    const application = await insertApplication(db, owner.accountId, { totalApiRequests: 1234 });
    const other = await insertApplication(db, owner.accountId);

    const active = await insertAppUser(db, application.id);
    await insertAppUser(db, application.id, { expiresAt: new Date(now.getTime() + 86_400_000) });
    await insertAppUser(db, application.id, { isActive: false });
    await insertAppUser(db, application.id, { isPaused: true });
    await insertAppUser(db, application.id, { expiresAt: ago(1000) });
    const elsewhere = await insertAppUser(db, other.id);

    const session = (appUserId: string, lastHeartbeatAt: Date, endedAt: Date | null = null) =>
      insertAppUserSession(db, {
        applicationId: application.id,
        appUserId,
        lastHeartbeatAt,
        endedAt,
      });
    await session(active.id, ago(10_000));
    await session(active.id, ago(89_000));
    await session(active.id, ago(91_000)); // silent too long
    await session(active.id, ago(5_000), ago(1_000)); // ended
    await insertAppUserSession(db, {
      applicationId: other.id,
      appUserId: elsewhere.id,
      lastHeartbeatAt: ago(1000),
    });

    const log = (
      event: string,
      success: boolean,
      createdAt: Date,
      applicationId = application.id,
    ) => insertActivityLog(db, { applicationId, event, success, createdAt });
    await log('user_login', true, ago(60_000));
    await log('user_login', true, ago(50_000));
    await log('user_login', true, ago(40_000));
    await log('login_failed', false, ago(30_000));
    await log('hwid_mismatch', false, ago(20_000));
    await log('user_register', true, ago(2_000)); // not a login: newest activity, not in the rate
    await log('user_login', true, ago(500), other.id);

    expect(await stats(application.id)).toEqual({
      totalUsers: 5,
      activeUsers: 2,
      activeSessions: 2,
      totalApiRequests: 1234,
      loginSuccessRate: 60,
      lastActivity: ago(2_000).toISOString(),
      unusedLicenses: 0,
      usedLicenses: 0,
    });

    // The application's own last-activity stamp counts when it is newer than any log.
    await db
      .update(applications)
      .set({ lastActivityAt: ago(100) })
      .where(eq(applications.id, application.id));
    expect((await stats(application.id)).lastActivity).toBe(ago(100).toISOString());
  });

  it('rounds the success rate to one decimal and counts every failure kind', async () => {
    const db = testApp.database.db;
    const application = await insertApplication(db, owner.accountId);
    const log = (event: string, success: boolean) =>
      insertActivityLog(db, { applicationId: application.id, event, success, createdAt: ago(1) });
    await log('user_login', true);
    await log('user_login', true);
    await log('user_login', false);
    expect((await stats(application.id)).loginSuccessRate).toBe(66.7);

    for (const event of [
      'account_disabled',
      'account_expired',
      'version_mismatch',
      'login_blocked_ip',
      'login_blocked_username',
      'login_blocked_hwid',
      'login_failed',
    ]) {
      await log(event, false);
    }
    expect((await stats(application.id)).loginSuccessRate).toBe(20);
  });

  it('agrees with the dashboard totals', async () => {
    const fresh = await signInOwner(testApp.app);
    const db = testApp.database.db;
    const first = await insertApplication(db, fresh.accountId);
    const second = await insertApplication(db, fresh.accountId, { isActive: false });
    for (const [application, users] of [
      [first, 3],
      [second, 2],
    ] as const) {
      for (let index = 0; index < users; index += 1) {
        const user = await insertAppUser(db, application.id);
        await insertAppUserSession(db, {
          applicationId: application.id,
          appUserId: user.id,
          lastHeartbeatAt: ago(index * 60_000),
        });
      }
    }
    const perApplication = await Promise.all(
      [first, second].map(async (application) => {
        const response = await testApp.app.inject({
          url: `/api/applications/${application.id}/stats`,
          headers: fresh.headers,
        });
        return applicationStatsSchema.parse(response.json());
      }),
    );
    const dashboard = dashboardStatsSchema.parse(
      (await testApp.app.inject({ url: '/api/dashboard/stats', headers: fresh.headers })).json(),
    );
    const sum = (pick: (s: (typeof perApplication)[number]) => number) =>
      perApplication.reduce((total, s) => total + pick(s), 0);
    expect(dashboard.totalUsers).toBe(sum((s) => s.totalUsers));
    expect(dashboard.totalActiveSessions).toBe(sum((s) => s.activeSessions));
    expect(dashboard.totalActiveSessions).toBe(4);
    expect(dashboard).toMatchObject({ totalApplications: 2, activeApplications: 1 });
  });

  it('answers 404 for an unknown application and 400 for a malformed id', async () => {
    const unknown = await testApp.app.inject({
      url: '/api/applications/424242/stats',
      headers: owner.headers,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
    const malformed = await testApp.app.inject({
      url: '/api/applications/stats/stats',
      headers: owner.headers,
    });
    expect(malformed.statusCode).toBe(400);
  });
});
