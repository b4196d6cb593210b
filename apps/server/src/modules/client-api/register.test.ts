import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clientAuthResponseSchema, type ClientRegisterRequest } from '@latchkey/contracts';
import { activityLogs, appUsers } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { PASSWORD_HASH_PREFIX, verifyPassword } from '../../lib/password-hashing.ts';
import {
  callClientApi,
  insertAppUser,
  insertAppUserWithPassword,
  insertBlacklistEntry,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

describe('POST /api/v1/register', () => {
  const now = new Date('2026-04-01T12:00:00Z');
  const clock = createManualClock(now);

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const db = () => testApp.database.db;

  const register = async (
    apiKey: string,
    body: Partial<ClientRegisterRequest>,
    options: { remoteAddress?: string } = {},
  ) => {
    const response = await callClientApi(testApp.app, 'register', {
      apiKey,
      body: { password: 'hunter2 hunter2', ...body },
      ...options,
    });
    return clientOutcome(clientAuthResponseSchema, response);
  };

  const usersNamed = (applicationId: number, username: string) =>
    db()
      .select()
      .from(appUsers)
      .where(and(eq(appUsers.applicationId, applicationId), eq(appUsers.username, username)));

  const logsOf = async (applicationId: number) => {
    await testApp.app.activity.flush();
    return db()
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, applicationId))
      .orderBy(desc(activityLogs.id));
  };

  it('creates an end user with an argon2id hash and answers the auth response', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const body = await register(application.apiKey, {
      username: '  newbie ',
      email: 'newbie@example.com',
      password: ' spaced secret ',
      hwid: 'PC-1',
      expiresAt: '2027-06-30T00:00:00Z',
    });
    expect(body).toEqual({
      success: true,
      message: 'Registration successful',
      code: 'OK',
      user_id: expect.any(String),
      username: 'newbie',
      email: 'newbie@example.com',
      expires_at: '2027-06-30T00:00:00.000Z',
      hwid_locked: false,
    });
    const [user] = await usersNamed(application.id, 'newbie');
    expect(user).toMatchObject({
      id: body.user_id,
      email: 'newbie@example.com',
      hwid: 'PC-1',
      isActive: true,
      isPaused: false,
      loginAttempts: 0,
      createdAt: now,
    });
    expect(user!.passwordHash.startsWith(PASSWORD_HASH_PREFIX)).toBe(true);
    expect(await verifyPassword(user!.passwordHash, ' spaced secret ')).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/secret|argon/);

    // The registering machine is the user's first device: two events.
    const logs = await logsOf(application.id);
    expect(logs.map((each) => each.event).sort()).toEqual(['device_added', 'user_register']);
    const log = logs.find((each) => each.event === 'user_register');
    expect(log).toMatchObject({
      event: 'user_register',
      success: true,
      appUserId: user!.id,
      username: 'newbie',
      ipAddress: '127.0.0.2',
      errorMessage: null,
      metadata: { code: 'OK', hwid: 'PC-1' },
      createdAt: now,
    });

    // The new user can log in straight away.
    const login = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: 'newbie', password: ' spaced secret ', version: '1.0.0' },
    });
    expect(login.json()).toMatchObject({ success: true, user_id: user!.id });
  });

  it('needs no e-mail, expiry or HWID, and reports HWID lock when a device is bound', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      hwidLockEnabled: true,
    });
    expect(await register(application.apiKey, { username: 'minimal', email: '' })).toMatchObject({
      success: true,
      email: null,
      expires_at: null,
      hwid_locked: false,
    });
    expect(
      await register(application.apiKey, { username: 'with-device', hwid: 'PC-9' }),
    ).toMatchObject({ success: true, hwid_locked: true });
  });

  it('refuses a taken username in the same application only', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const sibling = await insertClientApplication(testApp, owner.accountId);
    await insertAppUser(db(), application.id, { username: 'taken' });
    expect(await register(application.apiKey, { username: 'taken' })).toEqual({
      success: false,
      message: 'Username already exists',
      code: 'USERNAME_TAKEN',
    });
    expect(await usersNamed(application.id, 'taken')).toHaveLength(1);
    expect((await register(sibling.apiKey, { username: 'taken' })).success).toBe(true);
  });

  it('lets exactly one of two simultaneous registrations of a name win', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const answers = await Promise.all(
      [1, 2, 3].map(() => register(application.apiKey, { username: 'racer' })),
    );
    expect(answers.filter((answer) => answer.success)).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === 'USERNAME_TAKEN')).toHaveLength(2);
  });

  it('checks the blacklist (IP, username, e-mail, HWID) before creating anyone', async () => {
    const cases = [
      ['ip', '127.0.0.3', {}, 'login_blocked_ip'],
      ['username', 'CHEATER', { username: 'cheater' }, 'login_blocked_username'],
      ['email', 'Cheat@Example.com', { email: 'cheat@example.com' }, 'login_blocked_username'],
      ['hwid', 'BANNED-PC', { hwid: 'BANNED-PC' }, 'login_blocked_hwid'],
    ] as const;
    for (const [type, value, body, event] of cases) {
      const application = await insertClientApplication(testApp, owner.accountId);
      await insertBlacklistEntry(db(), {
        ownerAccountId: owner.accountId,
        applicationId: type === 'ip' ? null : application.id,
        type,
        value,
      });
      const username = 'username' in body ? body.username : `fresh-${type}`;
      const answer = await register(
        application.apiKey,
        { username, ...body },
        { remoteAddress: type === 'ip' ? '127.0.0.3' : '127.0.0.2' },
      );
      expect(answer).toEqual({
        success: false,
        message: expect.stringContaining('blocked'),
        code: 'BLACKLISTED',
      });
      expect(await usersNamed(application.id, username)).toEqual([]);
      const [log] = await logsOf(application.id);
      expect(log).toMatchObject({
        event,
        success: false,
        appUserId: null,
        username,
        metadata: { action: 'register', blockedBy: type, code: 'BLACKLISTED' },
      });
    }
  });

  it('does not count a blocked registration as a login attempt in the stats', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    await insertBlacklistEntry(db(), {
      ownerAccountId: owner.accountId,
      applicationId: application.id,
      type: 'username',
      value: 'spammer',
    });
    await register(application.apiKey, { username: 'spammer' });
    await register(application.apiKey, { username: 'honest' });
    await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: 'honest', password: 'hunter2 hunter2', version: '1.0.0' },
    });
    await testApp.app.activity.flush();
    const stats = await testApp.app.inject({
      url: `/api/applications/${application.id}/stats`,
      headers: owner.headers,
    });
    expect(stats.json()).toMatchObject({ loginSuccessRate: 100, totalUsers: 1 });
  });

  it('answers APP_DISABLED for an inactive application and creates nobody', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      isActive: false,
    });
    expect(await register(application.apiKey, { username: 'late' })).toEqual({
      success: false,
      message: expect.any(String),
      code: 'APP_DISABLED',
    });
    expect(await usersNamed(application.id, 'late')).toEqual([]);
  });

  it('refuses malformed registrations with 400 INVALID_REQUEST', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const cases: [unknown, RegExp][] = [
      [{ password: 'x' }, /^username: username is required$/],
      [{ username: '   ', password: 'x' }, /^username: username is required$/],
      [{ username: 'a' }, /^password: password is required$/],
      [{ username: 'a', password: '' }, /^password: password is required$/],
      [{ username: 'a', password: 'x', email: 'not-an-email' }, /^email: /],
      [{ username: 'a', password: 'x', expiresAt: 'next week' }, /^expiresAt: /],
      [{ username: 'u'.repeat(65), password: 'x' }, /^username: .*at most 64/],
      [{ username: 'a', password: 'p'.repeat(1025) }, /^password: .*at most 1024/],
      [{ username: 'a', password: 'x', hwid: 'h'.repeat(257) }, /^hwid: .*at most 256/],
      [{ username: 'a\u0007b', password: 'x' }, /^username: .*invalid characters/],
      [{ username: 'a\u0000b', password: 'x' }, /^username: text must be valid Unicode/],
      [{ username: ['a'], password: 'x' }, /^username: username must be a string$/],
    ];
    for (const [body, message] of cases) {
      const response = await callClientApi(testApp.app, 'register', {
        apiKey: application.apiKey,
        body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        code: 'INVALID_REQUEST',
        message: expect.stringMatching(message),
      });
    }
    expect(
      await db().select().from(appUsers).where(eq(appUsers.applicationId, application.id)),
    ).toEqual([]);
  });
  it('refuses a password shorter than the minimum or of only spaces, and logs in older ones', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const cases: [string, string][] = [
      [' ', 'password: Password must not be only spaces'],
      [' '.repeat(12), 'password: Password must not be only spaces'],
      ['\t\n  ', 'password: Password must not be only spaces'],
      ['seven77', 'password: Password must be at least 8 characters'],
    ];
    for (const [password, message] of cases) {
      const response = await callClientApi(testApp.app, 'register', {
        apiKey: application.apiKey,
        body: { username: 'shorty', password },
      });
      expect(response.statusCode, JSON.stringify(password)).toBe(400);
      expect(response.json()).toEqual({ success: false, code: 'INVALID_REQUEST', message });
    }
    expect(await usersNamed(application.id, 'shorty')).toEqual([]);
    expect(
      await register(application.apiKey, { username: 'eight', password: '8 chars!' }),
    ).toMatchObject({ success: true });

    // Users created before the rule (or under a lower minimum) keep their passwords.
    const older = await insertAppUserWithPassword(db(), application.id, 'x', { username: 'old' });
    const login = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: older.username, password: 'x', version: '1.0.0' },
    });
    expect(login.json()).toMatchObject({ success: true, code: 'OK' });
  });

  it('takes the minimum from END_USER_PASSWORD_MIN_LENGTH', async () => {
    // The same database, so the owner signed in above exists there too.
    const strictApp = await createTestApp({
      clock,
      database: testApp.database,
      // One database, one deployment: the same secret (else the instance refuses to start).
      env: { END_USER_PASSWORD_MIN_LENGTH: '12', SERVER_SECRET: testApp.config.serverSecret },
    });
    try {
      const application = await insertClientApplication(strictApp, owner.accountId);
      const response = await callClientApi(strictApp.app, 'register', {
        apiKey: application.apiKey,
        body: { username: 'eleven', password: '11 chars!!!' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('password: Password must be at least 12 characters');
      const config = await strictApp.app.inject({ url: '/api/config' });
      expect(config.json().endUserPasswordMinLength).toBe(12);
    } finally {
      await strictApp.close();
    }
  });
});
