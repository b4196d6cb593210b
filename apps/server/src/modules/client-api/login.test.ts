import { hash } from '@node-rs/argon2';
import { hashSync } from '@node-rs/bcrypt';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  clientAuthResponseSchema,
  SESSION_TOKEN_PATTERN,
  type ClientLoginRequest,
} from '@latchkey/contracts';
import { activityLogs, appUsers, blacklistEntries } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertBlacklistEntry,
  insertClientApplication,
  insertAppUserWithPassword,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

const PASSWORD = 'correct horse battery staple';

/** Every application here has its own six messages, so each answer shows whose text it used. */
const customMessages = {
  loginSuccessMessage: 'Welcome back, pilot',
  loginFailedMessage: 'Nope: wrong name or password',
  accountDisabledMessage: 'Your account has been disabled by Acme',
  accountExpiredMessage: 'Your Acme licence has expired',
  versionMismatchMessage: 'Please update Acme to the latest version',
  hwidMismatchMessage: 'HWID mismatch: Acme is locked to another PC',
};

describe('POST /api/v1/login', () => {
  const now = new Date('2026-04-01T12:00:00Z');
  const clock = createManualClock(now);

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const db = () => testApp.database.db;

  const setUp = async (
    applicationOverrides: Parameters<typeof insertClientApplication>[2] = {},
    userOverrides: Parameters<typeof insertAppUserWithPassword>[3] = {},
  ) => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      version: '2.1.0',
      ...customMessages,
      ...applicationOverrides,
    });
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD, {
      email: 'pilot@example.com',
      ...userOverrides,
    });
    return { application, user };
  };

  const login = async (
    apiKey: string,
    body: Partial<ClientLoginRequest>,
    options: { remoteAddress?: string } = {},
  ) => {
    const response = await callClientApi(testApp.app, 'login', {
      apiKey,
      body: { version: '2.1.0', ...body },
      ...options,
    });
    return clientOutcome(clientAuthResponseSchema, response);
  };

  const storedUser = async (id: string) =>
    (await db().select().from(appUsers).where(eq(appUsers.id, id)))[0]!;

  const logsOf = async (applicationId: number) => {
    await testApp.app.activity.flush();
    return db()
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, applicationId))
      .orderBy(desc(activityLogs.id));
  };

  it('accepts a bcrypt hash imported from KeyAuth and replaces it with argon2id on the first success', async () => {
    const { application, user } = await setUp();
    // PHP's password_hash writes $2y$; the cost is low here only to keep the test quick.
    const bcryptHash = hashSync(PASSWORD, 4).replace(/^\$2b\$/, '$2y$');
    await db().update(appUsers).set({ passwordHash: bcryptHash }).where(eq(appUsers.id, user.id));

    const wrong = await login(application.apiKey, { username: user.username, password: 'nope' });
    expect(wrong.code).toBe('INVALID_CREDENTIALS');
    expect((await storedUser(user.id)).passwordHash).toBe(bcryptHash);

    const first = await login(application.apiKey, { username: user.username, password: PASSWORD });
    expect(first.code).toBe('OK');
    const upgraded = (await storedUser(user.id)).passwordHash;
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const again = await login(application.apiKey, { username: user.username, password: PASSWORD });
    expect(again.code).toBe('OK');
    expect((await storedUser(user.id)).passwordHash).toBe(upgraded);
  });

  it('rehashes an imported argon2 hash of other parameters, and never runs one out of bounds', async () => {
    const { application, user } = await setUp();
    // PHP's PASSWORD_ARGON2ID defaults: within bounds, verified, then replaced by our own.
    const phpArgon2 = await hash(PASSWORD, { memoryCost: 65536, timeCost: 4, parallelism: 1 });
    await db().update(appUsers).set({ passwordHash: phpArgon2 }).where(eq(appUsers.id, user.id));
    const first = await login(application.apiKey, { username: user.username, password: PASSWORD });
    expect(first.code).toBe('OK');
    expect((await storedUser(user.id)).passwordHash).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/,
    );

    // Whatever the database holds, a hash naming 4 TiB of memory or a bcrypt cost of 20 is
    // never run: the login fails as for a wrong password, in about the time of our own hash.
    const salt = 'c2FsdHNhbHRzYWx0c2FsdA';
    for (const hostile of [
      `$argon2id$v=19$m=4294967295,t=1,p=1$${salt}$${'A'.repeat(43)}`,
      hashSync(PASSWORD, 4).replace('$04$', '$20$'),
    ]) {
      await db().update(appUsers).set({ passwordHash: hostile }).where(eq(appUsers.id, user.id));
      const started = performance.now();
      const refused = await login(application.apiKey, {
        username: user.username,
        password: PASSWORD,
      });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(refused).toMatchObject({ success: false, code: 'INVALID_CREDENTIALS' });
      expect((await storedUser(user.id)).passwordHash).toBe(hostile);
    }
  });

  it('logs a user in with the auth response, a session token and the success message', async () => {
    const { application, user } = await setUp({}, { expiresAt: new Date('2027-01-01T00:00:00Z') });
    await db().update(appUsers).set({ loginAttempts: 3 }).where(eq(appUsers.id, user.id));
    const body = await login(application.apiKey, {
      username: user.username,
      password: PASSWORD,
      hwid: 'PC-1',
    });
    expect(body).toEqual({
      success: true,
      message: 'Welcome back, pilot',
      code: 'OK',
      user_id: user.id,
      username: user.username,
      email: 'pilot@example.com',
      expires_at: '2027-01-01T00:00:00.000Z',
      hwid_locked: false,
      session_token: expect.stringMatching(SESSION_TOKEN_PATTERN),
      entitlements: [],
      subscriptions: [],
      updates_until: null,
    });
    expect(body.session_token).toMatch(/^sess_[0-9a-f]{32}_1775044800$/);

    const [log] = await logsOf(application.id);
    expect(log).toMatchObject({
      event: 'user_login',
      success: true,
      appUserId: user.id,
      username: user.username,
      ipAddress: '127.0.0.2',
      errorMessage: null,
      metadata: { code: 'OK', hwid: 'PC-1', version: '2.1.0' },
      createdAt: now,
    });
    const stored = await storedUser(user.id);
    expect(stored.lastLogin).toEqual(now);
    // Success resets the failed-attempts counter.
    expect(stored.loginAttempts).toBe(0);
    // HWID lock is off: the device is accepted, not bound.
    expect(stored.hwid).toBeNull();
  });

  it('issues a different session token on every login', async () => {
    const { application, user } = await setUp();
    const credentials = { username: user.username, password: PASSWORD };
    const first = await login(application.apiKey, credentials);
    const second = await login(application.apiKey, credentials);
    expect(first.session_token).not.toBe(second.session_token);
  });

  it('gives an unknown username and a wrong password the same message and code', async () => {
    const { application, user } = await setUp();
    const unknown = await login(application.apiKey, { username: 'nobody', password: PASSWORD });
    const wrong = await login(application.apiKey, { username: user.username, password: 'guess' });
    expect(unknown).toEqual({
      success: false,
      message: 'Nope: wrong name or password',
      code: 'INVALID_CREDENTIALS',
    });
    expect(wrong).toEqual(unknown);

    const [wrongLog, unknownLog] = await logsOf(application.id);
    expect(unknownLog).toMatchObject({
      event: 'login_failed',
      success: false,
      appUserId: null,
      username: 'nobody',
      errorMessage: 'Nope: wrong name or password',
      metadata: { code: 'INVALID_CREDENTIALS', version: '2.1.0' },
    });
    expect(wrongLog).toMatchObject({ event: 'login_failed', appUserId: user.id });
    expect((await storedUser(user.id)).loginAttempts).toBe(1);
  });

  it('spends a password hash on unknown usernames too, so timing does not tell them apart', async () => {
    const { application, user } = await setUp();
    // CPU time of this process (argon2 runs on libuv's threads, which it counts), not wall
    // time: a loaded machine delays a request without adding to its CPU time, so the
    // comparison holds however busy CI is. The fastest of several, sides alternating: other
    // work in the process only ever adds time. How long a login takes is npm run bench's job.
    const cpuMicrosecondsOf = async (username: string) => {
      const before = process.cpuUsage();
      await login(application.apiKey, { username, password: 'wrong password' });
      const used = process.cpuUsage(before);
      return used.user + used.system;
    };
    let unknownUser = Infinity;
    let wrongPassword = Infinity;
    for (let index = 0; index < 9; index += 1) {
      unknownUser = Math.min(unknownUser, await cpuMicrosecondsOf('no-such-user'));
      wrongPassword = Math.min(wrongPassword, await cpuMicrosecondsOf(user.username));
    }
    // argon2id costs ~12 ms of CPU here; without the dummy hash an unknown user costs ~1 ms.
    expect(unknownUser).toBeGreaterThan(wrongPassword * 0.5);
    expect(wrongPassword).toBeGreaterThan(unknownUser * 0.5);
  });

  it("refuses paused, inactive and expired users with the application's messages", async () => {
    const cases = [
      [
        { isPaused: true },
        'ACCOUNT_DISABLED',
        customMessages.accountDisabledMessage,
        'account_disabled',
      ],
      [
        { isActive: false },
        'ACCOUNT_DISABLED',
        customMessages.accountDisabledMessage,
        'account_disabled',
      ],
      [
        { expiresAt: new Date(now.getTime() - 1000) },
        'ACCOUNT_EXPIRED',
        customMessages.accountExpiredMessage,
        'account_expired',
      ],
      // Expiring exactly now counts as expired.
      [
        { expiresAt: now },
        'ACCOUNT_EXPIRED',
        customMessages.accountExpiredMessage,
        'account_expired',
      ],
    ] as const;
    for (const [userOverrides, code, message, event] of cases) {
      const { application, user } = await setUp({}, userOverrides);
      const body = await login(application.apiKey, { username: user.username, password: PASSWORD });
      expect(body).toEqual({ success: false, message, code });
      const [log] = await logsOf(application.id);
      expect(log).toMatchObject({
        event,
        success: false,
        appUserId: user.id,
        errorMessage: message,
      });
      expect((await storedUser(user.id)).loginAttempts).toBe(1);
      expect((await storedUser(user.id)).lastLogin).toBeNull();
    }
  });

  it('requires exactly the application version; a missing version is a mismatch', async () => {
    const { application, user } = await setUp();
    for (const version of ['2.0.9', '2.1', ' 2.1.1', undefined, null, '']) {
      const body = await login(application.apiKey, {
        username: user.username,
        password: PASSWORD,
        version,
      });
      expect(body).toEqual({
        success: false,
        message: customMessages.versionMismatchMessage,
        code: 'VERSION_MISMATCH',
      });
    }
    const [log] = await logsOf(application.id);
    expect(log).toMatchObject({ event: 'version_mismatch', metadata: { version: null } });
    expect(
      (await login(application.apiKey, { username: user.username, password: PASSWORD })).code,
    ).toBe('OK');
  });

  describe('HWID lock', () => {
    it('binds the first device, then refuses any other or none', async () => {
      const { application, user } = await setUp({ hwidLockEnabled: true });
      const credentials = { username: user.username, password: PASSWORD };
      const first = await login(application.apiKey, { ...credentials, hwid: 'DEVICE-A' });
      expect(first).toMatchObject({ success: true, code: 'OK', hwid_locked: true });
      expect((await storedUser(user.id)).hwid).toBe('DEVICE-A');

      const mismatch = {
        success: false,
        message: customMessages.hwidMismatchMessage,
        code: 'HWID_MISMATCH',
      };
      expect(await login(application.apiKey, { ...credentials, hwid: 'DEVICE-B' })).toEqual(
        mismatch,
      );
      expect(await login(application.apiKey, credentials)).toEqual(mismatch);
      expect(await login(application.apiKey, { ...credentials, hwid: '' })).toEqual(mismatch);
      expect(await login(application.apiKey, { ...credentials, hwid: 'device-a' })).toEqual(
        mismatch,
      );
      expect((await storedUser(user.id)).hwid).toBe('DEVICE-A');
      const [log] = await logsOf(application.id);
      expect(log).toMatchObject({ event: 'hwid_mismatch', metadata: { hwid: 'device-a' } });

      expect(await login(application.apiKey, { ...credentials, hwid: 'DEVICE-A' })).toMatchObject({
        success: true,
      });
    });

    it('refuses a user with no device bound who sends no HWID, and binds nothing', async () => {
      const { application, user } = await setUp({ hwidLockEnabled: true });
      const body = await login(application.apiKey, { username: user.username, password: PASSWORD });
      expect(body.code).toBe('HWID_MISMATCH');
      expect((await storedUser(user.id)).hwid).toBeNull();
    });

    it('binds a new device after the owner resets the HWID', async () => {
      const { application, user } = await setUp({ hwidLockEnabled: true }, { hwid: 'OLD-PC' });
      const credentials = { username: user.username, password: PASSWORD };
      expect((await login(application.apiKey, { ...credentials, hwid: 'NEW-PC' })).code).toBe(
        'HWID_MISMATCH',
      );
      const reset = await testApp.app.inject({
        method: 'POST',
        url: `/api/applications/${application.id}/users/${user.id}/reset-hwid`,
        headers: owner.headers,
      });
      expect(reset.statusCode).toBe(200);
      expect((await login(application.apiKey, { ...credentials, hwid: 'NEW-PC' })).code).toBe('OK');
      expect((await storedUser(user.id)).hwid).toBe('NEW-PC');
    });

    it('accepts any device, or none, with the lock off', async () => {
      const { application, user } = await setUp({ hwidLockEnabled: false }, { hwid: 'BOUND-PC' });
      const credentials = { username: user.username, password: PASSWORD };
      for (const hwid of ['OTHER-PC', undefined, 'BOUND-PC']) {
        expect(await login(application.apiKey, { ...credentials, hwid })).toMatchObject({
          success: true,
          hwid_locked: false,
        });
      }
      expect((await storedUser(user.id)).hwid).toBe('BOUND-PC');
    });
  });

  describe('blacklist', () => {
    const blockedMessage = expect.stringContaining('blocked');

    it('refuses a blocked IP, username, e-mail or HWID, logging which one', async () => {
      const cases = [
        ['ip', '127.0.0.2', 'login_blocked_ip'],
        ['username', 'BLOCKED-NAME', 'login_blocked_username'],
        ['email', 'PILOT@example.com', 'login_blocked_username'],
        ['hwid', 'BANNED-PC', 'login_blocked_hwid'],
      ] as const;
      for (const [type, value, event] of cases) {
        const { application, user } = await setUp(
          {},
          { username: type === 'username' ? 'blocked-name' : `user-${type}-${Math.random()}` },
        );
        await insertBlacklistEntry(db(), {
          ownerAccountId: owner.accountId,
          applicationId: application.id,
          type,
          value,
        });
        const body = await login(application.apiKey, {
          username: user.username,
          password: PASSWORD,
          hwid: type === 'hwid' ? 'BANNED-PC' : 'FINE-PC',
        });
        expect(body).toEqual({ success: false, message: blockedMessage, code: 'BLACKLISTED' });
        const [log] = await logsOf(application.id);
        expect(log).toMatchObject({
          event,
          success: false,
          appUserId: user.id,
          errorMessage: body.message,
          metadata: { code: 'BLACKLISTED', blockedBy: type },
        });
        expect((await storedUser(user.id)).loginAttempts).toBe(1);
      }
    });

    it('names the first blocked part when several are blocked (IP, username, e-mail, HWID)', async () => {
      const { application, user } = await setUp({}, { email: 'several@example.com' });
      const block = (type: 'username' | 'email' | 'hwid', value: string) =>
        insertBlacklistEntry(db(), {
          ownerAccountId: owner.accountId,
          applicationId: null,
          type,
          value,
        });
      const attempt = () =>
        login(application.apiKey, { username: user.username, password: PASSWORD, hwid: 'HW-9' });
      await block('hwid', 'HW-9');
      await block('email', 'SEVERAL@example.com');
      expect(await attempt()).toMatchObject({ code: 'BLACKLISTED' });
      expect((await logsOf(application.id))[0]).toMatchObject({
        metadata: { blockedBy: 'email' },
      });
      await block('username', user.username.toUpperCase());
      await attempt();
      expect((await logsOf(application.id))[0]).toMatchObject({
        event: 'login_blocked_username',
        metadata: { blockedBy: 'username' },
      });
    });

    it('checks the blacklist before the password, and blocks unknown usernames too', async () => {
      const { application, user } = await setUp();
      await insertBlacklistEntry(db(), {
        ownerAccountId: owner.accountId,
        applicationId: null,
        type: 'ip',
        value: '127.0.0.3',
      });
      const fromBlockedIp = { remoteAddress: '127.0.0.3' };
      expect(
        await login(
          application.apiKey,
          { username: user.username, password: 'wrong' },
          fromBlockedIp,
        ),
      ).toMatchObject({ code: 'BLACKLISTED' });
      expect(
        await login(application.apiKey, { username: 'ghost', password: 'x' }, fromBlockedIp),
      ).toMatchObject({ code: 'BLACKLISTED' });
      // The same request from another address is not blocked.
      expect(
        await login(application.apiKey, { username: user.username, password: PASSWORD }),
      ).toMatchObject({ code: 'OK' });
    });

    it('ignores inactive entries, other applications and other owners', async () => {
      const { application, user } = await setUp();
      const sibling = await insertClientApplication(testApp, owner.accountId);
      const otherOwner = await signInOwner(testApp.app);
      await insertBlacklistEntry(db(), {
        ownerAccountId: owner.accountId,
        applicationId: sibling.id,
        type: 'username',
        value: user.username,
      });
      await insertBlacklistEntry(db(), {
        ownerAccountId: otherOwner.accountId,
        applicationId: null,
        type: 'username',
        value: user.username,
      });
      const inactive = await insertBlacklistEntry(db(), {
        ownerAccountId: owner.accountId,
        applicationId: null,
        type: 'username',
        value: user.username,
      });
      await db()
        .update(blacklistEntries)
        .set({ isActive: false })
        .where(eq(blacklistEntries.id, inactive.id));
      expect(
        await login(application.apiKey, { username: user.username, password: PASSWORD }),
      ).toMatchObject({ code: 'OK' });
    });
  });

  describe('check order', () => {
    const expectCode = async (
      overrides: {
        application?: Parameters<typeof insertClientApplication>[2];
        user?: Parameters<typeof insertAppUserWithPassword>[3];
        blockUsername?: boolean;
      },
      body: Partial<ClientLoginRequest>,
      code: string,
    ) => {
      const { application, user } = await setUp(overrides.application, overrides.user);
      if (overrides.blockUsername) {
        await insertBlacklistEntry(db(), {
          ownerAccountId: owner.accountId,
          applicationId: application.id,
          type: 'username',
          value: user.username,
        });
      }
      const answer = await login(application.apiKey, {
        username: user.username,
        password: PASSWORD,
        ...body,
      });
      expect(answer.code).toBe(code);
    };

    it('blacklist before credentials', () =>
      expectCode({ blockUsername: true }, { password: 'wrong' }, 'BLACKLISTED'));
    it('blacklist before paused', () =>
      expectCode({ blockUsername: true, user: { isPaused: true } }, {}, 'BLACKLISTED'));
    it('credentials before paused', () =>
      expectCode({ user: { isPaused: true } }, { password: 'wrong' }, 'INVALID_CREDENTIALS'));
    it('credentials before expiry', () =>
      expectCode(
        { user: { expiresAt: new Date(0) } },
        { password: 'wrong' },
        'INVALID_CREDENTIALS',
      ));
    it('paused before expiry', () =>
      expectCode({ user: { isPaused: true, expiresAt: new Date(0) } }, {}, 'ACCOUNT_DISABLED'));
    it('expiry before version', () =>
      expectCode({ user: { expiresAt: new Date(0) } }, { version: '0.1' }, 'ACCOUNT_EXPIRED'));
    it('version before HWID', () =>
      expectCode(
        { application: { hwidLockEnabled: true }, user: { hwid: 'PC-A' } },
        { version: '0.1', hwid: 'PC-B' },
        'VERSION_MISMATCH',
      ));
    it('HWID last', () =>
      expectCode(
        { application: { hwidLockEnabled: true }, user: { hwid: 'PC-A' } },
        { hwid: 'PC-B' },
        'HWID_MISMATCH',
      ));
  });

  it('counts every refusal of an existing user in loginAttempts and resets it on success', async () => {
    const { application, user } = await setUp({ hwidLockEnabled: true }, { hwid: 'PC-A' });
    const credentials = { username: user.username, password: PASSWORD };
    await login(application.apiKey, { ...credentials, password: 'wrong' });
    await login(application.apiKey, { ...credentials, version: '1' });
    await login(application.apiKey, { ...credentials, hwid: 'PC-B' });
    await testApp.app.activity.flush();
    expect((await storedUser(user.id)).loginAttempts).toBe(3);
    // A success then a failure in the same batch: reset first, then one more.
    await login(application.apiKey, { ...credentials, hwid: 'PC-A' });
    await login(application.apiKey, { ...credentials, password: 'wrong' });
    await testApp.app.activity.flush();
    expect((await storedUser(user.id)).loginAttempts).toBe(1);
  });

  it('answers APP_DISABLED for an inactive application, before looking at the user', async () => {
    const { application, user } = await setUp({ isActive: false });
    const body = await login(application.apiKey, { username: user.username, password: PASSWORD });
    expect(body).toEqual({
      success: false,
      message: expect.stringMatching(/unavailable/),
      code: 'APP_DISABLED',
    });
    expect(await logsOf(application.id)).toEqual([]);
    expect((await storedUser(user.id)).loginAttempts).toBe(0);
  });

  it('finds the application by api_key in the body when the header is absent', async () => {
    const { application, user } = await setUp();
    const response = await callClientApi(testApp.app, 'login', {
      body: {
        username: user.username,
        password: PASSWORD,
        version: '2.1.0',
        api_key: application.apiKey,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, user_id: user.id });

    // When the header is sent, it decides: a wrong header is a 401 even with a good body key.
    const wrongHeader = await callClientApi(testApp.app, 'login', {
      apiKey: 'lk_live_' + 'x'.repeat(43),
      body: {
        username: user.username,
        password: PASSWORD,
        version: '2.1.0',
        api_key: application.apiKey,
      },
    });
    expect(wrongHeader.statusCode).toBe(401);
    expect(wrongHeader.json()).toMatchObject({ success: false, code: 'INVALID_API_KEY' });

    const noKey = await callClientApi(testApp.app, 'login', {
      body: { username: user.username, password: PASSWORD },
    });
    expect(noKey.statusCode).toBe(401);
    expect(noKey.json()).toEqual({
      success: false,
      code: 'INVALID_API_KEY',
      message: expect.stringMatching(/Missing API key/),
    });
  });

  it('trims the username but keeps the password exactly as typed', async () => {
    const { application, user } = await setUp();
    expect(
      (await login(application.apiKey, { username: ` ${user.username} `, password: PASSWORD }))
        .code,
    ).toBe('OK');
    expect(
      (await login(application.apiKey, { username: user.username, password: ` ${PASSWORD}` })).code,
    ).toBe('INVALID_CREDENTIALS');
  });
});
