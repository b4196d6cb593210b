import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  clientAuthResponseSchema,
  clientSessionResponseSchema,
  clientVerifyResponseSchema,
  type Application,
} from '@latchkey/contracts';
import {
  activityLogs,
  appUsers,
  licenseKeys,
  subscriptions,
  webhookDeliveries,
} from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createApplicationViaApi,
  createWebhookViaApi,
  insertBlacklistEntry,
  createPlanViaApi,
  generateLicensesViaApi,
  grantSubscriptionViaApi,
} from '../../../test/factories.ts';
import {
  signInOwnerForSuite,
  startTestAppWithSecondConnection,
} from '../../../test/suite-test-app.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

const DAY_MS = 86_400_000;

describe('client API: licence keys, subscriptions and entitlements', () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));
  let nextAddress = 10;
  /** Each test its own client address, so the per-IP key throttle of one never reaches another. */
  const address = () => `198.51.100.${nextAddress++}`;

  const { testApp, otherConnection } = startTestAppWithSecondConnection({
    clock,
    env: { LICENSE_FAILURES_PER_IP: '5' },
  });
  const owner = signInOwnerForSuite(testApp);
  const db = () => testApp.database.db;

  const newApplication = async (settings: Record<string, unknown> = {}) => {
    const application = await createApplicationViaApi(testApp.app, owner);
    if (Object.keys(settings).length > 0) {
      const updated = await testApp.app.inject({
        method: 'PUT',
        url: `/api/applications/${application.id}`,
        headers: owner.headers,
        payload: settings,
      });
      expect(updated.statusCode, updated.body).toBe(200);
    }
    const pro = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Pro',
      durationDays: 30,
      entitlements: ['PRO', 'EXPORT_PDF'],
    });
    return { application, planId: pro.id };
  };
  const keysOf = async (application: Application, planId: string, count = 1, extra = {}) =>
    generateLicensesViaApi(testApp.app, owner, application.id, { planId, count, ...extra });

  const call = async (
    application: Application,
    path: string,
    body: Record<string, unknown>,
    remoteAddress = '198.51.100.1',
  ) => {
    const response = await callClientApi(testApp.app, path, {
      apiKey: application.apiKey,
      body,
      remoteAddress,
    });
    return response;
  };
  const auth = async (...args: Parameters<typeof call>) => {
    const response = await call(...args);
    return clientOutcome(clientAuthResponseSchema, response);
  };
  const register = (application: Application, body: Record<string, unknown>, ip = address()) =>
    auth(application, 'register', { password: 'hunter2 hunter2', ...body }, ip);
  const keyRow = async (id: string) =>
    (await db().select().from(licenseKeys).where(eq(licenseKeys.id, id)))[0]!;
  const eventsOf = (applicationId: number) =>
    otherConnection.db
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, applicationId));

  it('registers with a key in one transaction: the user, the key used, the subscription and both events', async () => {
    const { application, planId } = await newApplication();
    const [key] = await keysOf(application, planId);
    const answer = await register(application, { username: 'alice', license_key: key!.key });
    expect(answer).toMatchObject({
      success: true,
      code: 'OK',
      entitlements: ['EXPORT_PDF', 'PRO'],
      subscriptions: [
        { plan: 'Pro', expires_at: new Date(clock.now().getTime() + 30 * DAY_MS).toISOString() },
      ],
    });
    expect(await keyRow(key!.id)).toMatchObject({ state: 'used', usedByUserId: answer.user_id });
    // Read at once through another connection, with no flush: written before the answer.
    const events = await eventsOf(application.id);
    expect(events.map((event) => event.event).sort()).toEqual([
      'license_redeemed',
      'user_register',
    ]);
    expect(JSON.stringify(events)).not.toContain(key!.key);
  });

  it('refuses a bad key with its code and creates nothing; a failed user leaves the key unused', async () => {
    const { application, planId } = await newApplication();
    const [used, banned, lapsing, fresh] = await keysOf(application, planId, 3);
    const [lapsed] = await keysOf(application, planId, 1, {
      redeemBy: new Date(clock.now().getTime() + 60_000).toISOString(),
    });
    await register(application, { username: 'first', license_key: used!.key });
    await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/licenses/${banned!.id}/ban`,
      headers: owner.headers,
      payload: { reason: 'chargeback' },
    });
    clock.advance(120_000);
    const other = await newApplication();
    const [foreign] = await keysOf(other.application, other.planId);
    const cases = [
      ['LICENSE_INVALID', 'NOT-A-KEY'],
      ['LICENSE_INVALID', foreign!.key],
      ['LICENSE_USED', used!.key],
      ['LICENSE_BANNED', banned!.key],
      ['LICENSE_EXPIRED', lapsed!.key],
    ] as const;
    for (const [code, licenseKey] of cases) {
      const answer = await register(application, {
        username: `u-${code}`,
        license_key: licenseKey,
      });
      expect(answer, licenseKey).toMatchObject({ success: false, code });
      const created = await db()
        .select()
        .from(appUsers)
        .where(and(eq(appUsers.applicationId, application.id), eq(appUsers.username, `u-${code}`)));
      expect(created).toHaveLength(0);
    }
    // An unknown key and another application's key: the same answer.
    const failures = (await eventsOf(application.id)).filter((e) => e.event === 'license_failed');
    expect(failures).toHaveLength(5);
    // The user fails (a taken name): the key stays unused.
    const taken = await register(application, { username: 'first', license_key: lapsing!.key });
    expect(taken.code).toBe('USERNAME_TAKEN');
    expect((await keyRow(lapsing!.id)).state).toBe('unused');
    expect((await keyRow(fresh ? fresh.id : lapsing!.id)).state).toBe('unused');
  });

  it('stacks redemptions from the later of now and the expiry, also two at once', async () => {
    const { application, planId } = await newApplication();
    const keys = await keysOf(application, planId, 3);
    const user = await register(application, { username: 'stacker', license_key: keys[0]!.key });
    const webhook = await createWebhookViaApi(testApp.app, owner, {
      events: ['license_redeemed'],
      applicationId: application.id,
    });
    const redeem = (key: string) =>
      auth(application, 'license/redeem', {
        username: 'stacker',
        password: 'hunter2 hunter2',
        license_key: key,
      });
    const basic = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Basic',
      durationDays: null,
      entitlements: ['BASIC'],
    });
    await grantSubscriptionViaApi(
      testApp.app,
      owner,
      { applicationId: application.id, userId: user.user_id! },
      { planId: basic.id },
    );
    const [a, b] = await Promise.all([redeem(keys[1]!.key), redeem(keys[2]!.key)]);
    expect([a.code, b.code]).toEqual(['OK', 'OK']);
    // Each answer holds the subscriptions as its own redemption left them, every plan listed.
    const inDays = (days: number) => new Date(clock.now().getTime() + days * DAY_MS).toISOString();
    expect([a, b].map((answer) => answer.subscriptions?.[1]?.expires_at).sort()).toEqual([
      inDays(60),
      inDays(90),
    ]);
    expect(a.subscriptions?.[0]).toEqual({ plan: 'Basic', expires_at: null });
    expect(a.entitlements).toEqual(['BASIC', 'EXPORT_PDF', 'PRO']);
    // The stacked plan's row: the user holds Basic too, and rows come in no set order.
    const [subscription] = await db()
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.appUserId, user.user_id!), eq(subscriptions.planId, planId)));
    expect(subscription!.expiresAt!.getTime()).toBe(clock.now().getTime() + 90 * DAY_MS);
    // Each redemption wrote its event, naming the key and plan, and queued its delivery.
    const redeemedEvents = (await eventsOf(application.id)).filter(
      (event) => event.event === 'license_redeemed' && event.metadata?.action === 'redeem',
    );
    expect(redeemedEvents.map((event) => event.metadata?.licenseId).sort()).toEqual(
      [keys[1]!.id, keys[2]!.id].sort(),
    );
    expect(redeemedEvents.every((event) => event.metadata?.plan === 'Pro')).toBe(true);
    const deliveries = await db()
      .select({ activityLogId: webhookDeliveries.activityLogId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(deliveries.map((delivery) => delivery.activityLogId).sort()).toEqual(
      redeemedEvents.map((event) => event.id).sort(),
    );

    const wrongPassword = await auth(application, 'license/redeem', {
      username: 'stacker',
      password: 'wrong password',
      license_key: keys[0]!.key,
    });
    expect(wrongPassword.code).toBe('INVALID_CREDENTIALS');
  });

  it('lets exactly one of two clients redeem one key', async () => {
    const { application, planId } = await newApplication();
    const [key] = await keysOf(application, planId);
    const answers = await Promise.all(
      ['racer-one', 'racer-two'].map((username) =>
        register(application, { username, license_key: key!.key }),
      ),
    );
    expect(answers.map((answer) => answer.code).sort()).toEqual(['LICENSE_USED', 'OK']);
    const users = await db()
      .select()
      .from(appUsers)
      .where(eq(appUsers.applicationId, application.id));
    expect(users).toHaveLength(1);
  });

  it('with licenseRequired: register needs a key, and login, verify and heartbeat need a subscription', async () => {
    const { application, planId } = await newApplication({ licenseRequired: true });
    expect((await register(application, { username: 'nokey' })).code).toBe('LICENSE_REQUIRED');
    const [key] = await keysOf(application, planId);
    const user = await register(application, { username: 'licensed', license_key: key!.key });
    const login = await auth(application, 'login', {
      username: 'licensed',
      password: 'hunter2 hunter2',
      version: '1.0.0',
    });
    expect(login).toMatchObject({ code: 'OK', entitlements: ['EXPORT_PDF', 'PRO'] });
    const started = await call(application, 'session/track', {
      action: 'start',
      user_id: user.user_id,
      session_token: login.session_token,
    });
    expect(clientSessionResponseSchema.parse(started.json()).code).toBe('OK');

    // The owner bans the key: its 30 days come off, the user holds nothing, the session ends.
    const banned = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/licenses/${key!.id}/ban`,
      headers: owner.headers,
      payload: { reason: 'refunded' },
    });
    expect(banned.statusCode).toBe(200);
    const heartbeat = await call(application, 'session/track', {
      action: 'heartbeat',
      session_token: login.session_token,
    });
    expect(clientSessionResponseSchema.parse(heartbeat.json()).code).toBe('NO_ACTIVE_SUBSCRIPTION');
    const verify = await call(application, 'verify', { user_id: user.user_id });
    expect(clientVerifyResponseSchema.parse(verify.json()).code).toBe('NO_ACTIVE_SUBSCRIPTION');
    const again = await auth(application, 'login', {
      username: 'licensed',
      password: 'hunter2 hunter2',
      version: '1.0.0',
    });
    expect(again.code).toBe('NO_ACTIVE_SUBSCRIPTION');

    // Unbanned, the grant is given back.
    await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/licenses/${key!.id}/unban`,
      headers: owner.headers,
    });
    const back = await call(application, 'verify', { user_id: user.user_id });
    expect(clientVerifyResponseSchema.parse(back.json()).code).toBe('OK');
  });

  it('answers ENTITLEMENTS_MISSING from verify, naming what is missing', async () => {
    const { application, planId } = await newApplication();
    const [key] = await keysOf(application, planId);
    const user = await register(application, { username: 'checker', license_key: key!.key });
    const held = await call(application, 'verify', {
      user_id: user.user_id,
      entitlements: ['PRO'],
    });
    expect(clientVerifyResponseSchema.parse(held.json())).toMatchObject({
      code: 'OK',
      entitlements: ['EXPORT_PDF', 'PRO'],
    });
    const missing = await call(application, 'verify', {
      user_id: user.user_id,
      entitlements: ['PRO', 'TEAM', 'API'],
    });
    expect(clientVerifyResponseSchema.parse(missing.json())).toMatchObject({
      success: false,
      code: 'ENTITLEMENTS_MISSING',
      missing_entitlements: ['API', 'TEAM'],
    });
  });

  it("answers a plan's new entitlements at the holders' very next verify", async () => {
    const { application, planId } = await newApplication();
    const [key] = await keysOf(application, planId);
    const user = await register(application, { username: 'holder', license_key: key!.key });
    const before = await call(application, 'verify', { user_id: user.user_id });
    expect(clientVerifyResponseSchema.parse(before.json()).entitlements).toEqual([
      'EXPORT_PDF',
      'PRO',
    ]);
    const edited = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}/plans/${planId}`,
      headers: owner.headers,
      payload: { entitlements: ['PRO', 'TEAM'] },
    });
    expect(edited.statusCode).toBe(200);
    const after = await call(application, 'verify', { user_id: user.user_id });
    expect(clientVerifyResponseSchema.parse(after.json()).entitlements).toEqual(['PRO', 'TEAM']);
  });

  it('logs in with a key alone: the first use makes key-<id>, later uses log it in', async () => {
    const { application, planId } = await newApplication({ hwidLockEnabled: true });
    const [key, registered] = await keysOf(application, planId, 2);
    const ip = address();
    const first = await auth(
      application,
      'license/login',
      { license_key: key!.key, hwid: 'PC-1', version: '1.0.0' },
      ip,
    );
    expect(first).toMatchObject({
      code: 'OK',
      username: `key-${key!.id}`,
      hwid_locked: true,
      entitlements: ['EXPORT_PDF', 'PRO'],
    });
    expect(first.session_token).toBeDefined();
    const second = await auth(
      application,
      'license/login',
      { license_key: ` ${key!.key} `, hwid: 'PC-1', version: '1.0.0' },
      ip,
    );
    expect(second).toMatchObject({ code: 'OK', user_id: first.user_id });
    const otherMachine = await auth(
      application,
      'license/login',
      { license_key: key!.key, hwid: 'PC-2', version: '1.0.0' },
      ip,
    );
    expect(otherMachine.code).toBe('HWID_MISMATCH');
    // A key redeemed by a registered account does not log in alone.
    await register(application, { username: 'owner-of-key', license_key: registered!.key });
    const taken = await auth(
      application,
      'license/login',
      { license_key: registered!.key, hwid: 'PC-3', version: '1.0.0' },
      ip,
    );
    expect(taken.code).toBe('LICENSE_USED');
    const names = await db()
      .select({ username: appUsers.username })
      .from(appUsers)
      .where(eq(appUsers.applicationId, application.id));
    expect(JSON.stringify(names)).not.toContain(key!.key);
  });

  it('refuses a redemption by a blacklisted user, and one from an address past the key throttle', async () => {
    const { application, planId } = await newApplication();
    const [key] = await keysOf(application, planId);
    await register(application, { username: 'listed' });
    await register(application, { username: 'guesser' });
    await insertBlacklistEntry(db(), {
      ownerAccountId: owner.accountId,
      applicationId: application.id,
      type: 'username',
      value: 'listed',
    });
    const redeem = (username: string, licenseKey: string, ip: string) =>
      call(
        application,
        'license/redeem',
        { username, password: 'hunter2 hunter2', license_key: licenseKey },
        ip,
      );
    const blocked = await redeem('listed', key!.key, address());
    expect(clientAuthResponseSchema.parse(blocked.json()).code).toBe('BLACKLISTED');
    expect((await keyRow(key!.id)).state).toBe('unused');

    const ip = address();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await redeem('guesser', `WRONG-${attempt}`, ip);
      expect(clientAuthResponseSchema.parse(wrong.json()).code).toBe('LICENSE_INVALID');
    }
    const throttled = await redeem('guesser', key!.key, ip);
    expect(throttled.statusCode).toBe(429);
    expect((await keyRow(key!.id)).state).toBe('unused');
  });

  it('throttles failed key attempts per IP with 429 and Retry-After', async () => {
    const { application } = await newApplication();
    const ip = address();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await auth(
        application,
        'license/login',
        { license_key: `WRONG-${attempt}` },
        ip,
      );
      expect(answer.code).toBe('LICENSE_INVALID');
    }
    const throttled = await call(application, 'license/login', { license_key: 'WRONG-6' }, ip);
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    const elsewhere = await auth(
      application,
      'license/login',
      { license_key: 'WRONG-7' },
      address(),
    );
    expect(elsewhere.code).toBe('LICENSE_INVALID');
  });
});
