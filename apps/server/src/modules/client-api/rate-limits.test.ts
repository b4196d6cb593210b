import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityLogs, appUsers, rateLimits } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertAppUser,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';

const PASSWORD = 'the right password';

describe('client API rate limits', () => {
  const start = new Date('2026-04-01T12:00:00Z');
  const clock = createManualClock(start);

  // The defaults: 10 failed logins per 15 minutes, 600 requests per minute per IP. The
  // failure counters live in the database here (login-throttles.test.ts covers Redis).
  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  describe('failed logins per application, username and IP', () => {
    const login = (apiKey: string, username: string, password: string, remoteAddress?: string) =>
      callClientApi(testApp.app, 'login', {
        apiKey,
        body: { username, password, version: '1.0.0' },
        ...(remoteAddress ? { remoteAddress } : {}),
      });

    it('throttles after 10 failures in 15 minutes, even the right password', async () => {
      clock.set(start);
      const application = await insertClientApplication(testApp, owner.accountId);
      const db = testApp.database.db;
      const user = await insertAppUserWithPassword(db, application.id, PASSWORD);
      const neighbour = await insertAppUserWithPassword(db, application.id, PASSWORD);

      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await login(application.apiKey, user.username, `guess ${attempt}`);
        expect(response.statusCode).toBe(200);
        expect(response.json().code).toBe('INVALID_CREDENTIALS');
      }
      // The window runs 15 minutes from the first failure (the store's clock, real time).
      const throttled = await login(application.apiKey, user.username, PASSWORD);
      expect(throttled.statusCode).toBe(429);
      const retryAfter = Number(throttled.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(850);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expect(throttled.json()).toEqual({
        success: false,
        code: 'RATE_LIMITED',
        message: `Too many failed login attempts. Try again in ${retryAfter} seconds.`,
      });

      // Other usernames on the same IP, and the same username from another IP, are fine.
      expect((await login(application.apiKey, neighbour.username, PASSWORD)).json().code).toBe(
        'OK',
      );
      expect(
        (await login(application.apiKey, user.username, PASSWORD, '127.0.0.3')).json().code,
      ).toBe('OK');

      // A throttled attempt is refused before the user is looked up: no log, no count.
      await testApp.app.activity.flush();
      const failuresLogged = await db
        .select()
        .from(activityLogs)
        .where(eq(activityLogs.appUserId, user.id));
      const attempts = (await db.select().from(appUsers).where(eq(appUsers.id, user.id)))[0]!;
      expect(failuresLogged.filter((log) => log.event === 'login_failed')).toHaveLength(10);
      expect(attempts.loginAttempts).toBe(0); // reset by the success from 127.0.0.3

      // The window ends (moved into the past rather than waited for).
      await db.update(rateLimits).set({ expire: Date.now() - 1 });
      const afterWindow = await login(application.apiKey, user.username, PASSWORD);
      expect(afterWindow.statusCode).toBe(200);
      expect(afterWindow.json().code).toBe('OK');
    });

    it('throttles guesses at unknown usernames the same way', async () => {
      clock.set(start);
      const application = await insertClientApplication(testApp, owner.accountId);
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect((await login(application.apiKey, 'ghost', 'x')).statusCode).toBe(200);
      }
      expect((await login(application.apiKey, 'ghost', 'x')).statusCode).toBe(429);
    });

    it('does not count refusals that prove the password right (e.g. an old version)', async () => {
      clock.set(start);
      const application = await insertClientApplication(testApp, owner.accountId, {
        version: '2.0.0',
      });
      const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
      for (let attempt = 0; attempt < 12; attempt += 1) {
        const response = await login(application.apiKey, user.username, PASSWORD);
        expect(response.json().code).toBe('VERSION_MISMATCH');
      }
    });

    it('keeps separate counts per application', async () => {
      clock.set(start);
      const first = await insertClientApplication(testApp, owner.accountId);
      const second = await insertClientApplication(testApp, owner.accountId);
      const db = testApp.database.db;
      await insertAppUserWithPassword(db, first.id, PASSWORD, { username: 'shared-name' });
      await insertAppUserWithPassword(db, second.id, PASSWORD, { username: 'shared-name' });
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await login(first.apiKey, 'shared-name', 'wrong');
      }
      expect((await login(first.apiKey, 'shared-name', PASSWORD)).statusCode).toBe(429);
      expect((await login(second.apiKey, 'shared-name', PASSWORD)).json().code).toBe('OK');
    });
  });

  describe('requests per IP address and application', () => {
    const verify = (apiKey: string, userId: string, remoteAddress = '127.0.0.2') =>
      callClientApi(testApp.app, 'verify', { apiKey, body: { user_id: userId }, remoteAddress });

    it('allows the configured 600 a minute (at least 300), then answers 429 with Retry-After', async () => {
      expect(testApp.config.clientApi.ipLimitPerMinute).toBe(600);
      clock.set(start);
      const application = await insertClientApplication(testApp, owner.accountId);
      const sibling = await insertClientApplication(testApp, owner.accountId);
      const user = await insertAppUser(testApp.database.db, application.id);
      for (let index = 0; index < 600; index += 1) {
        const response = await verify(application.apiKey, user.id);
        if (response.statusCode !== 200) throw new Error(`request ${index}: ${response.body}`);
      }
      const limited = await verify(application.apiKey, user.id);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('1');
      expect(limited.json()).toEqual({
        success: false,
        code: 'RATE_LIMITED',
        message: 'Too many requests. Try again in 1 seconds.',
      });
      // Another address, and another application from the same address, are unaffected.
      expect((await verify(application.apiKey, user.id, '127.0.0.3')).statusCode).toBe(200);
      expect((await verify(sibling.apiKey, user.id)).statusCode).toBe(200);
      // 10 requests a second come back.
      clock.advance(1000);
      for (let index = 0; index < 10; index += 1) {
        expect((await verify(application.apiKey, user.id)).statusCode).toBe(200);
      }
      expect((await verify(application.apiKey, user.id)).statusCode).toBe(429);
      clock.advance(60_000);
      expect((await verify(application.apiKey, user.id)).statusCode).toBe(200);
    });

    it('limits requests with unknown keys per IP too, before any database lookup', async () => {
      clock.set(start);
      const statuses = new Set<number>();
      for (let index = 0; index < 601; index += 1) {
        const response = await callClientApi(testApp.app, 'verify', {
          apiKey: `lk_live_${String(index).padStart(43, 'k')}`,
          body: { user_id: 'x' },
          remoteAddress: '127.0.0.4',
        });
        statuses.add(response.statusCode);
      }
      expect([...statuses].sort()).toEqual([401, 429]);
    });
  });
});

describe('a configured per-IP limit', () => {
  const clock = createManualClock();
  const testApp = startTestAppForSuite({ clock, env: { CLIENT_API_IP_LIMIT_PER_MINUTE: '5' } });

  it('answers 429 beyond it', async () => {
    const owner = await signInOwner(testApp.app);
    const application = await insertClientApplication(testApp, owner.accountId);
    const statuses: number[] = [];
    for (let index = 0; index < 7; index += 1) {
      const response = await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: 'x' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});
