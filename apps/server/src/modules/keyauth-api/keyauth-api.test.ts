import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { applicationSchema, type Application } from '@latchkey/contracts';
import { activityLogs, appUsers, blacklistEntries } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
  insertAppUserWithPassword,
  insertBlacklistEntry,
} from '../../../test/factories.ts';
import {
  createKeyauthTestClient,
  KeyauthSignatureError,
} from '../../../test/keyauth-test-client.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwner } from '../../../test/test-app.ts';

const PASSWORD = 'correct horse battery staple';

describe('the KeyAuth-compatible client API (/api/1.2, /api/1.3)', () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));
  const testApp = startTestAppForSuite({
    clock,
    env: { LOGIN_FAILURE_LIMIT: '4' },
  });
  const owner = signInOwnerForSuite(testApp);
  const request = ownerRequests(testApp, owner);
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  let application: Application;
  let appCounter = 0;

  /** An application with compatibility on, as the owner turns it on. */
  const compatibleApplication = async (settings: Record<string, unknown> = {}) => {
    appCounter += 1;
    const created = await createApplicationViaApi(testApp.app, owner, {
      name: `Forge ${appCounter}`,
    });
    const response = await request('PUT', `/api/applications/${created.id}`, {
      keyauthCompatibility: true,
      ...settings,
    });
    expect(response.statusCode).toBe(200);
    return applicationSchema.parse(response.json());
  };
  const clientFor = (target: Application, version: '1.2' | '1.3', remoteAddress?: string) =>
    createKeyauthTestClient({
      app: testApp.app,
      version,
      name: target.keyauthName!,
      ownerId: target.keyauthOwnerId!,
      secret: target.keyauthSecret!,
      publicKey: target.signingPublicKey,
      appVersion: target.version,
      nowSeconds,
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  const newUser = (
    target: Application,
    overrides: Parameters<typeof insertAppUserWithPassword>[3] = {},
  ) => insertAppUserWithPassword(testApp.database.db, target.id, PASSWORD, overrides);

  beforeAll(async () => {
    application = await compatibleApplication();
  });

  it('answers the bare KeyAuth_Invalid for an unknown application, and at once when turned off', async () => {
    const stranger = createKeyauthTestClient({
      app: testApp.app,
      version: '1.2',
      name: 'Nobody',
      ownerId: 'AAAAAAAAAA',
      secret: 'x',
      nowSeconds,
    });
    expect((await stranger.init()).raw).toBe('KeyAuth_Invalid');

    const target = await compatibleApplication();
    const client = clientFor(target, '1.2');
    expect((await client.init()).json.success).toBe(true);
    await request('PUT', `/api/applications/${target.id}`, { keyauthCompatibility: false });
    const refused = await client.init();
    expect(refused.raw).toBe('KeyAuth_Invalid');
    expect(refused.response.statusCode).toBe(200);
  });

  for (const version of ['1.2', '1.3'] as const) {
    it(`API ${version}: init, register, check, variables, log and logout, every answer signed`, async () => {
      const client = clientFor(application, version);
      const init = await client.init();
      expect(init.json).toMatchObject({
        success: true,
        message: 'Initialized',
        code: 68,
        newSession: true,
        appinfo: { version: '1.0.0', numUsers: expect.any(String), numKeys: expect.any(String) },
      });
      expect(client.sessionId).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(init.json.nonce).toMatch(/^[0-9a-f]{32}$/);
      // A request before login is not validated.
      expect((await client.request('check')).json).toMatchObject({ success: false });

      const username = `pilot_${version.replace('.', '')}`;
      const registered = await client.request('register', {
        username,
        pass: PASSWORD,
        key: '',
        email: '',
        hwid: 'S-1-5-21-1111',
      });
      expect(registered.json).toMatchObject({ success: true, code: 68 });
      const info = registered.json.info as Record<string, unknown>;
      expect(info).toMatchObject({ username, hwid: 'S-1-5-21-1111', ip: '127.0.0.9' });
      // Numbers KeyAuth sends as strings are strings; timeleft is a number.
      expect(info.createdate).toBe(String(nowSeconds()));
      expect(info.lastlogin).toEqual(expect.any(String));
      const [subscription] = info.subscriptions as Record<string, unknown>[];
      expect(subscription).toMatchObject({ subscription: 'default', key: null, level: '1' });
      expect(subscription!.expiry).toEqual(expect.any(String));
      expect(subscription!.timeleft).toEqual(expect.any(Number));

      expect((await client.request('check')).json).toMatchObject({
        success: true,
        message: 'Session is validated.',
      });
      const value = 'Grüße / 😀';
      expect((await client.request('setvar', { var: 'theme', data: value })).json.success).toBe(
        true,
      );
      const read = await client.request('getvar', { var: 'theme' });
      expect(read.json).toMatchObject({ success: true, response: value });
      // PHP's json_encode: non-ASCII as \uXXXX, "/" as "\/".
      expect(read.raw).toContain('"response":"Gr\\u00fc\\u00dfe \\/ \\ud83d\\ude00"');

      expect(
        (await client.request('log', { message: 'opened the editor', pcuser: 'ada' })).json.success,
      ).toBe(true);
      const [logged] = await testApp.database.db
        .select()
        .from(activityLogs)
        .where(eq(activityLogs.event, 'client_log'))
        .orderBy(activityLogs.createdAt);
      expect(logged).toBeDefined();

      expect((await client.request('logout')).json).toMatchObject({
        success: true,
        message: 'Successfully logged out.',
      });
      expect((await client.request('check')).json.success).toBe(false);
    });
  }

  it('answers a GET like a POST (KeyAuth reads both)', async () => {
    const client = clientFor(application, '1.2');
    await client.init();
    const answer = await client.request('fetchStats', {}, { method: 'GET' });
    expect(answer.json).toMatchObject({ success: true, appinfo: { version: '1.0.0' } });
  });

  it('1.2 signs with the secret for init and with {enckey}-{secret} afterwards; 1.3 within 20 s', async () => {
    const client = clientFor(application, '1.2');
    const init = await client.init();
    expect(typeof init.response.headers.signature).toBe('string');
    // A client holding another secret refuses every answer, as KeyAuth's clients exit.
    const forger = createKeyauthTestClient({
      app: testApp.app,
      version: '1.2',
      name: application.keyauthName!,
      ownerId: application.keyauthOwnerId!,
      secret: 'ab'.repeat(32),
      nowSeconds,
    });
    await expect(forger.init()).rejects.toThrow(KeyauthSignatureError);
    const late = createKeyauthTestClient({
      app: testApp.app,
      version: '1.3',
      name: application.keyauthName!,
      ownerId: application.keyauthOwnerId!,
      publicKey: application.signingPublicKey,
      nowSeconds: () => nowSeconds() + 21,
    });
    await expect(late.init()).rejects.toThrow('older than 20 seconds');
  });

  it('refuses a wrong version at init with invalidver and no session', async () => {
    const client = createKeyauthTestClient({
      app: testApp.app,
      version: '1.3',
      name: application.keyauthName!,
      ownerId: application.keyauthOwnerId!,
      publicKey: application.signingPublicKey,
      appVersion: '0.9.0',
      nowSeconds,
    });
    const answer = await client.init();
    expect(answer.json).toMatchObject({ success: false, message: 'invalidver', download: '' });
    expect(answer.json.code).toBeUndefined();
  });

  it("offers the current release's download URL with invalidver, its slashes escaped", async () => {
    const target = await compatibleApplication();
    const uploaded = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${target.id}/files?name=setup.exe&version=2.0.0&requiresSession=false`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('the new version'),
    });
    expect(uploaded.statusCode).toBe(201);
    const fileId = (uploaded.json() as { id: string }).id;
    await request('PUT', `/api/applications/${target.id}`, { currentReleaseFileId: fileId });
    const client = createKeyauthTestClient({
      app: testApp.app,
      version: '1.2',
      name: target.keyauthName!,
      ownerId: target.keyauthOwnerId!,
      secret: target.keyauthSecret!,
      appVersion: '0.9.0',
      nowSeconds,
    });
    const answer = await client.init();
    expect(answer.json).toMatchObject({ success: false, message: 'invalidver' });
    const download = String(answer.json.download);
    expect(download).toMatch(new RegExp(`/api/v1/downloads/${fileId}\\.`));
    expect(answer.raw).toContain(`"download":"${download.replaceAll('/', '\\/')}"`);
    const fetched = await testApp.app.inject({ url: new URL(download).pathname });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.body).toBe('the new version');
  });

  it('applies v1 rules: paused, expired, blacklisted (a HWID with its newline) and HWID lock', async () => {
    const target = await compatibleApplication({ hwidLockEnabled: true });
    const client = clientFor(target, '1.3');
    await client.init();
    const paused = await newUser(target, { isPaused: true });
    expect(
      (await client.request('login', { username: paused.username, pass: PASSWORD, hwid: 'H1' }))
        .json,
    ).toMatchObject({
      success: false,
      message: 'Your account has been disabled. Please contact support.',
    });
    const expired = await newUser(target, { expiresAt: new Date('2026-01-01T00:00:00Z') });
    expect(
      (await client.request('login', { username: expired.username, pass: PASSWORD, hwid: 'H1' }))
        .json,
    ).toMatchObject({
      success: false,
      message: 'Your account has expired. Please renew your license.',
    });

    await insertBlacklistEntry(testApp.database.db, {
      ownerAccountId: owner.accountId,
      applicationId: target.id,
      type: 'hwid',
      value: 'machine-0042',
    });
    const blocked = await newUser(target);
    const blockedAnswer = await client.request('login', {
      username: blocked.username,
      pass: PASSWORD,
      hwid: 'machine-0042\n',
    });
    expect(blockedAnswer.json).toMatchObject({
      success: false,
      message: expect.stringMatching(/blacklist/),
    });
    // checkblacklist's inverted answer: success means blacklisted.
    expect((await client.request('checkblacklist', { hwid: 'machine-0042\n' })).json.success).toBe(
      true,
    );
    expect((await client.request('checkblacklist', { hwid: 'machine-0043' })).json.success).toBe(
      false,
    );

    const locked = await newUser(target);
    expect(
      (
        await client.request('login', {
          username: locked.username,
          pass: PASSWORD,
          hwid: 'first-pc',
        })
      ).json.success,
    ).toBe(true);
    const second = clientFor(target, '1.3');
    await second.init();
    expect(
      (
        await second.request('login', {
          username: locked.username,
          pass: PASSWORD,
          hwid: 'other-pc',
        })
      ).json,
    ).toMatchObject({
      success: false,
      message: 'HWID mismatch: this account is locked to another device.',
    });
  });

  it('counts KeyAuth and v1 failed logins against the same throttle', async () => {
    const user = await newUser(application);
    const client = clientFor(application, '1.2', '127.0.0.44');
    await client.init();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        remoteAddress: '127.0.0.44',
        body: { username: user.username, password: 'wrong', version: '1.0.0' },
      });
      await client.request('login', { username: user.username, pass: 'wrong', hwid: '' });
    }
    const throttled = await client.request('login', {
      username: user.username,
      pass: PASSWORD,
      hwid: '',
    });
    expect(throttled.json).toMatchObject({
      success: false,
      message: expect.stringMatching(/Try again in \d+ seconds/),
    });
    expect(throttled.response.statusCode).toBe(200);
    expect(throttled.response.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('checks a session again after a new login on it replaced the remembered one', async () => {
    const first = await newUser(application);
    const second = await newUser(application);
    const client = clientFor(application, '1.2');
    await client.init();
    await client.request('login', { username: first.username, pass: PASSWORD, hwid: '' });
    // check remembers the binding; a second login on the same session replaces it.
    expect((await client.request('check')).json.success).toBe(true);
    await client.request('login', { username: second.username, pass: PASSWORD, hwid: '' });
    expect((await client.request('check')).json.success).toBe(true);
    expect((await client.request('logout')).json.success).toBe(true);
    expect((await client.request('check')).json).toMatchObject({
      success: false,
      message: 'Session is not validated. Log in first.',
    });
  });

  it('ends a KeyAuth session when the owner pauses its user, like any other session', async () => {
    const user = await newUser(application);
    const client = clientFor(application, '1.3');
    await client.init();
    expect(
      (await client.request('login', { username: user.username, pass: PASSWORD, hwid: '' })).json
        .success,
    ).toBe(true);
    expect((await client.request('check')).json.success).toBe(true);
    const paused = await request('PUT', `/api/applications/${application.id}/users/${user.id}`, {
      isPaused: true,
    });
    expect(paused.statusCode).toBe(200);
    expect((await client.request('check')).json.success).toBe(false);
  });

  it('logs in with a key alone, redeems with upgrade, and throttles upgrade like a key guess', async () => {
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Gold',
      durationDays: 30,
      entitlements: ['LEVEL_3'],
    });
    const [{ key } = { key: '' }] = await generateLicensesViaApi(
      testApp.app,
      owner,
      application.id,
      {
        planId: plan.id,
      },
    );
    const client = clientFor(application, '1.2');
    await client.init();
    const keyLogin = await client.request('license', { key, hwid: '' });
    expect(keyLogin.json).toMatchObject({ success: true, code: 68 });
    const [gold] = (keyLogin.json.info as { subscriptions: Record<string, unknown>[] })
      .subscriptions;
    expect(gold).toMatchObject({ subscription: 'Gold', level: '3', key: null });
    expect(gold!.timeleft).toBe(30 * 86_400);

    const holder = await newUser(application);
    const [{ key: second } = { key: '' }] = await generateLicensesViaApi(
      testApp.app,
      owner,
      application.id,
      {
        planId: plan.id,
      },
    );
    expect(
      (await client.request('upgrade', { username: holder.username, key: second })).json,
    ).toMatchObject({ success: true, message: 'Upgraded successfully' });
    expect(
      (await client.request('upgrade', { username: holder.username, key: second })).json.success,
    ).toBe(false);
    expect(
      (await client.request('upgrade', { username: 'nobody_here', key: 'NOPE-NOPE' })).json.success,
    ).toBe(false);
  });

  it('bans its own user, answers stats, masked online names, files, forgot and unsupported types', async () => {
    const target = await compatibleApplication();
    const client = clientFor(target, '1.2');
    await client.init();
    const user = await newUser(target, { username: 'marguerite' });
    expect(
      (await client.request('login', { username: 'marguerite', pass: PASSWORD, hwid: 'pc-77' }))
        .json.success,
    ).toBe(true);

    const online = await client.request('fetchOnline');
    expect(online.json).toMatchObject({ success: true, users: [{ credential: 'mar*******' }] });
    // The same answer whether or not the account exists (KeyAuth's own tells).
    for (const username of ['marguerite', 'nobody_at_all']) {
      expect(
        (await client.request('forgot', { username, email: 'x@example.com' })).json,
      ).toMatchObject({
        success: true,
        message: 'Successfully sent email to change password.',
      });
    }
    expect((await client.request('chatget', { channel: 'general' })).json.message).toMatch(
      /does not offer/,
    );
    expect((await client.request('nonsense')).json.message).toBe(
      'The value inputted for type paramater was not found',
    );
    expect(
      (await client.request('file', { fileid: '00000000-0000-4000-8000-000000000000' })).json,
    ).toMatchObject({ success: false });

    expect((await client.request('ban', { reason: 'debugger attached' })).json).toMatchObject({
      success: true,
      message: 'Successfully Banned User',
    });
    const [row] = await testApp.database.db.select().from(appUsers).where(eq(appUsers.id, user.id));
    expect(row?.isActive).toBe(false);
    const entries = await testApp.database.db
      .select()
      .from(blacklistEntries)
      .where(eq(blacklistEntries.applicationId, target.id));
    expect(entries).toEqual([
      expect.objectContaining({ type: 'hwid', value: 'pc-77', reason: 'debugger attached' }),
    ]);
    expect((await client.request('check')).json.success).toBe(false);
  });

  it('changes the username and logs the session out, refusing a taken name', async () => {
    const client = clientFor(application, '1.3');
    await client.init();
    const user = await newUser(application);
    const taken = await newUser(application);
    await client.request('login', { username: user.username, pass: PASSWORD, hwid: '' });
    expect(
      (await client.request('changeUsername', { newUsername: taken.username })).json,
    ).toMatchObject({
      success: false,
      message: 'Username already used!',
    });
    expect(
      (await client.request('changeUsername', { newUsername: `${user.username}_new` })).json,
    ).toMatchObject({
      success: true,
    });
    expect((await client.request('check')).json.success).toBe(false);
  });

  it("refuses another owner's application a session it did not open", async () => {
    const client = clientFor(application, '1.2');
    await client.init();
    const user = await newUser(application);
    await client.request('login', { username: user.username, pass: PASSWORD, hwid: '' });
    const stranger = await signInOwner(testApp.app);
    const created = await createApplicationViaApi(testApp.app, stranger, { name: 'Elsewhere' });
    const foreign = applicationSchema.parse(
      (
        await testApp.app.inject({
          method: 'PUT',
          url: `/api/applications/${created.id}`,
          headers: stranger.headers,
          payload: { keyauthCompatibility: true },
        })
      ).json(),
    );
    const thief = createKeyauthTestClient({
      app: testApp.app,
      version: '1.3',
      name: foreign.keyauthName!,
      ownerId: foreign.keyauthOwnerId!,
      publicKey: foreign.signingPublicKey,
      nowSeconds,
    });
    thief.sessionId = client.sessionId;
    for (const type of ['check', 'getvar', 'fetchOnline']) {
      expect((await thief.request(type, { var: 'theme' })).json).toMatchObject({
        success: false,
        message: 'Session not found. Call init first, or it expired.',
      });
    }
  });
});
