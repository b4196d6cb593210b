import { hashSync } from '@node-rs/bcrypt';
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  PORTAL_SESSION_ENDED,
  PORTAL_SIGN_IN_FAILED,
  applicationSchema,
  portalAccountSchema,
} from '@latchkey/contracts';
import { activityLogs, appUsers } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createApplicationViaApi,
  createAppUserViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
  insertBlacklistEntry,
} from '../../../test/factories.ts';
import { signInOwner, testConsoleOrigin, type SignedInOwner } from '../../../test/test-app.ts';
import { startTestAppForSuite } from '../../../test/suite-test-app.ts';

const PASSWORD = 'correct horse battery staple';

describe('the end-user portal', () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));
  const testApp = startTestAppForSuite({ clock, env: { LOGIN_FAILURE_LIMIT: '5' } });
  let owner: SignedInOwner;

  beforeEach(async () => {
    owner = await signInOwner(testApp.app);
  });

  const db = () => testApp.database.db;

  /** An application with its portal on (unless told otherwise) and one end user. */
  const setUp = async (settings: Record<string, unknown> = {}) => {
    const created = await createApplicationViaApi(testApp.app, owner);
    const updated = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${created.id}`,
      headers: owner.headers,
      payload: {
        hwidLockEnabled: true,
        maxDevices: 2,
        selfServiceReset: true,
        resetCooldownHours: 24,
        portalEnabled: true,
        portalName: 'Acme Portal',
        ...settings,
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const application = applicationSchema.parse(updated.json());
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
      email: 'pat@example.com',
    });
    return { application, user, base: `/api/portal/${application.portalPublicId}` };
  };

  const signIn = (base: string, username: string, password = PASSWORD, remoteAddress?: string) =>
    testApp.app.inject({
      method: 'POST',
      url: `${base}/session`,
      headers: { origin: testConsoleOrigin },
      payload: { username, password },
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  const cookieOf = (response: Awaited<ReturnType<typeof signIn>>) => {
    const cookie = response.cookies.find((each) => each.name === 'latchkey_portal');
    if (!cookie) throw new Error(`no portal cookie: ${response.body}`);
    return `latchkey_portal=${cookie.value}`;
  };

  const portalCall = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    cookie: string,
    payload?: unknown,
  ) =>
    testApp.app.inject({
      method,
      url,
      headers: { cookie, origin: testConsoleOrigin },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  const clientLogin = (apiKey: string, username: string, hwid: string, password = PASSWORD) =>
    callClientApi(testApp.app, 'login', {
      apiKey,
      body: { username, password, version: '1.0.0', hwid },
    }).then((response) => response.json() as { code: string });

  it('answers 404 for a portal that is off, and for an unknown id, alike', async () => {
    const { application, user } = await setUp({ portalEnabled: false });
    const off = await testApp.app.inject({ url: `/api/portal/${application.portalPublicId}` });
    const unknown = await testApp.app.inject({ url: '/api/portal/0123456789abcdef0123' });
    expect(off.statusCode).toBe(404);
    expect(off.json()).toEqual(unknown.json());
    const signInOff = await signIn(`/api/portal/${application.portalPublicId}`, user.username);
    expect(signInOff.statusCode).toBe(404);
    // Never the API key as the portal's address.
    expect(application.portalPublicId).not.toContain(application.apiKey.slice(8, 16));
  });

  it('signs in with a cookie of its own and shows the account', async () => {
    const { application, user, base } = await setUp();
    const info = await testApp.app.inject({ url: base });
    expect(info.json()).toEqual({
      name: 'Acme Portal',
      publicId: application.portalPublicId,
      // Development without SMTP_URL: the local mailbox takes the reset mail.
      canResetPassword: true,
    });

    const wrong = await signIn(base, user.username, 'not it');
    const unknown = await signIn(base, 'nobody-here');
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual({ message: PORTAL_SIGN_IN_FAILED, code: 'UNAUTHENTICATED' });
    expect(unknown.json()).toEqual(wrong.json());

    await clientLogin(application.apiKey, user.username, 'DESKTOP-1');
    const signedIn = await signIn(base, user.username);
    expect(signedIn.statusCode, signedIn.body).toBe(201);
    const cookie = signedIn.cookies.find((each) => each.name === 'latchkey_portal')!;
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: base,
      maxAge: 30 * 60,
    });
    const account = portalAccountSchema.parse(signedIn.json());
    expect(account).toMatchObject({
      portalName: 'Acme Portal',
      username: user.username,
      email: 'pat@example.com',
      expiresAt: null,
      deviceLimit: 2,
      selfServiceReset: true,
      nextResetAt: null,
    });
    expect(account.devices.map((device) => device.hwidPreview)).toEqual(['DESKTOP-']);
    expect(JSON.stringify(account)).not.toContain('DESKTOP-1');
    const again = await portalCall('GET', `${base}/account`, cookieOf(signedIn));
    expect(again.json()).toEqual(account);
  });

  it('replaces an imported bcrypt hash with its own on a successful sign-in, as a login does', async () => {
    const { user, base } = await setUp();
    const imported = hashSync(PASSWORD, 4).replace(/^\$2b\$/, '$2y$');
    await db().update(appUsers).set({ passwordHash: imported }).where(eq(appUsers.id, user.id));
    expect((await signIn(base, user.username)).statusCode).toBe(201);
    const [stored] = await db().select().from(appUsers).where(eq(appUsers.id, user.id));
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a paused or blacklisted user, and ends a session whose user is paused later', async () => {
    const { application, user, base } = await setUp({
      accountDisabledMessage: 'Acme paused your account',
    });
    const session = cookieOf(await signIn(base, user.username));
    await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/users/${user.id}/pause`,
      headers: owner.headers,
    });
    const paused = await signIn(base, user.username);
    expect(paused.statusCode).toBe(403);
    expect(paused.json()).toMatchObject({ message: 'Acme paused your account' });
    const after = await portalCall('GET', `${base}/account`, session);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ message: PORTAL_SESSION_ENDED });

    const blocked = await setUp();
    await insertBlacklistEntry(db(), {
      ownerAccountId: owner.accountId,
      applicationId: blocked.application.id,
      type: 'username',
      value: blocked.user.username,
    });
    const refused = await signIn(blocked.base, blocked.user.username);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/blacklist/);
  });

  it('throttles guesses with the client API\u2019s own counters', async () => {
    const { application, user, base } = await setUp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      statuses.push((await signIn(base, user.username, `guess ${attempt}`, '10.9.8.7')).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const throttled = await signIn(base, user.username, PASSWORD, '10.9.8.7');
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // The same user and address through the client API: the same counters.
    const viaClient = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, version: '1.0.0', hwid: 'X' },
      remoteAddress: '10.9.8.7',
    });
    expect(viaClient.statusCode).toBe(429);
  });

  it('keeps each credential in its own home', async () => {
    const { user, base } = await setUp();
    const portalCookie = cookieOf(await signIn(base, user.username));
    // A portal cookie on the owner API: not signed in.
    const onOwnerApi = await testApp.app.inject({
      url: '/api/applications',
      headers: { cookie: portalCookie, 'x-account-id': owner.accountId },
    });
    expect(onOwnerApi.statusCode).toBe(401);
    // An owner cookie on the portal: not signed in either.
    const onPortal = await portalCall('GET', `${base}/account`, owner.cookie);
    expect(onPortal.statusCode).toBe(401);
    // Another application's portal does not take this portal's session.
    const other = await setUp();
    const elsewhere = await portalCall('GET', `${other.base}/account`, portalCookie);
    expect(elsewhere.statusCode).toBe(401);
    // Mutations from a foreign origin, or with none, are refused.
    const foreign = await testApp.app.inject({
      method: 'DELETE',
      url: `${base}/session`,
      headers: { cookie: portalCookie, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    const noOrigin = await testApp.app.inject({
      method: 'POST',
      url: `${base}/session`,
      payload: { username: user.username, password: PASSWORD },
    });
    expect(noOrigin.statusCode).toBe(403);
  });

  it('releases a device under the cooldown, so another machine can log in', async () => {
    const { application, user, base } = await setUp({ maxDevices: 1 });
    await clientLogin(application.apiKey, user.username, 'OLD-PC');
    expect((await clientLogin(application.apiKey, user.username, 'NEW-PC')).code).toBe(
      'HWID_MISMATCH',
    );
    const cookie = cookieOf(await signIn(base, user.username));
    const [device] = portalAccountSchema.parse(
      (await portalCall('GET', `${base}/account`, cookie)).json(),
    ).devices;
    const released = await portalCall('DELETE', `${base}/devices/${device!.id}`, cookie);
    expect(released.statusCode, released.body).toBe(200);
    const account = portalAccountSchema.parse(released.json());
    expect(account.devices).toEqual([]);
    expect(account.nextResetAt).toBe(
      new Date(clock.now().getTime() + 24 * 3_600_000).toISOString(),
    );
    expect((await clientLogin(application.apiKey, user.username, 'NEW-PC')).code).toBe('OK');

    const [newDevice] = portalAccountSchema.parse(
      (await portalCall('GET', `${base}/account`, cookie)).json(),
    ).devices;
    const cooldown = await portalCall('DELETE', `${base}/devices/${newDevice!.id}`, cookie);
    expect(cooldown.statusCode).toBe(409);
    expect(cooldown.json().message).toMatch(/^You released a device recently/);
    expect(
      portalAccountSchema.parse((await portalCall('GET', `${base}/account`, cookie)).json())
        .nextResetAt,
    ).toBe(account.nextResetAt);
    const [event] = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, application.id),
          eq(activityLogs.event, 'device_released'),
        ),
      );
    expect(event!.metadata).toMatchObject({ hwid: 'OLD-PC', releasedBy: 'end_user' });
  });

  it('refuses a release when the application does not allow self-service', async () => {
    const { application, user, base } = await setUp({ selfServiceReset: false });
    await clientLogin(application.apiKey, user.username, 'PC');
    const cookie = cookieOf(await signIn(base, user.username));
    const account = portalAccountSchema.parse(
      (await portalCall('GET', `${base}/account`, cookie)).json(),
    );
    expect(account.selfServiceReset).toBe(false);
    const refused = await portalCall('DELETE', `${base}/devices/${account.devices[0]!.id}`, cookie);
    expect(refused.statusCode).toBe(403);
  });

  it('redeems a licence key onto the account, and says why a key is refused', async () => {
    const { application, user, base } = await setUp();
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Pro',
      durationDays: 30,
      entitlements: ['PRO'],
    });
    const [key] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
    });
    const cookie = cookieOf(await signIn(base, user.username));
    const redeemed = await portalCall('POST', `${base}/redeem`, cookie, { licenseKey: key!.key });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect(portalAccountSchema.parse(redeemed.json())).toMatchObject({
      entitlements: ['PRO'],
      subscriptions: [{ planName: 'Pro', isActive: true }],
    });
    const again = await portalCall('POST', `${base}/redeem`, cookie, { licenseKey: key!.key });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      message: 'This licence key has already been used',
      code: 'BAD_REQUEST',
    });
    const events = await db()
      .select({ event: activityLogs.event, metadata: activityLogs.metadata })
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, application.id));
    expect(events.map((row) => [row.event, row.metadata?.action])).toEqual(
      expect.arrayContaining([
        ['license_redeemed', 'portal'],
        ['license_failed', 'portal'],
      ]),
    );
  });

  it('changes the password with the current one and ends the other portal sessions', async () => {
    const { application, user, base } = await setUp();
    const first = cookieOf(await signIn(base, user.username));
    const second = cookieOf(await signIn(base, user.username));
    const wrong = await portalCall('POST', `${base}/password`, first, {
      currentPassword: 'not it',
      newPassword: 'a brand new passphrase',
    });
    expect(wrong.statusCode).toBe(403);
    const short = await portalCall('POST', `${base}/password`, first, {
      currentPassword: PASSWORD,
      newPassword: 'x',
    });
    expect(short.statusCode).toBe(400);
    const changed = await portalCall('POST', `${base}/password`, first, {
      currentPassword: PASSWORD,
      newPassword: 'a brand new passphrase',
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await portalCall('GET', `${base}/account`, first)).statusCode).toBe(200);
    expect((await portalCall('GET', `${base}/account`, second)).statusCode).toBe(401);
    expect(
      (await clientLogin(application.apiKey, user.username, 'PC', 'a brand new passphrase')).code,
    ).toBe('OK');
    const [stored] = await db().select().from(appUsers).where(eq(appUsers.id, user.id));
    expect(stored!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('signs out, and a session lasts 30 minutes', async () => {
    const { user, base } = await setUp();
    const cookie = cookieOf(await signIn(base, user.username));
    const signedOut = await portalCall('DELETE', `${base}/session`, cookie);
    expect(signedOut.statusCode).toBe(204);
    expect((await portalCall('GET', `${base}/account`, cookie)).statusCode).toBe(401);

    const later = cookieOf(await signIn(base, user.username));
    clock.advance(29 * 60_000);
    expect((await portalCall('GET', `${base}/account`, later)).statusCode).toBe(200);
    clock.advance(2 * 60_000);
    expect((await portalCall('GET', `${base}/account`, later)).statusCode).toBe(401);
  });
});
