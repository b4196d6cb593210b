import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAuthResponseSchema,
  clientDeviceResetResponseSchema,
  deviceListSchema,
  type ClientLoginRequest,
} from '@latchkey/contracts';
import {
  activityLogs,
  appUserDevices,
  appUsers,
  webhookDeliveries,
} from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createPlanViaApi,
  createWebhookViaApi,
  grantSubscriptionViaApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';
import { startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

const PASSWORD = 'correct horse battery staple';
const DAY_MS = 86_400_000;

describe('devices', () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));
  const testApp = startTestAppForSuite({ clock });
  let owner: SignedInOwner;

  beforeAll(async () => {
    owner = await signInOwner(testApp.app);
  });
  // The tests move the clock by weeks: past an owner session's life, so each signs in anew.
  beforeEach(async () => {
    owner = await signInOwner(testApp.app);
  });

  const db = () => testApp.database.db;

  const setUp = async (
    applicationOverrides: Parameters<typeof insertClientApplication>[2] = {},
  ) => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      hwidLockEnabled: true,
      ...applicationOverrides,
    });
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    return { application, user };
  };

  const login = async (
    apiKey: string,
    username: string,
    hwid: string | undefined,
    extra: Partial<ClientLoginRequest> = {},
  ) => {
    const response = await callClientApi(testApp.app, 'login', {
      apiKey,
      body: { username, password: PASSWORD, version: '1.0.0', hwid, ...extra },
    });
    return clientOutcome(clientAuthResponseSchema, response);
  };

  const resetOwn = async (
    apiKey: string,
    body: { username: string; password?: string; hwid?: string; all?: boolean },
  ) => {
    const response = await callClientApi(testApp.app, 'devices/reset', {
      apiKey,
      body: { password: PASSWORD, ...body },
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

  const ownerCall = (method: 'GET' | 'DELETE' | 'POST', url: string) =>
    testApp.app.inject({ method, url, headers: owner.headers });

  const devicesOf = async (applicationId: number, userId: string) => {
    const response = await ownerCall(
      'GET',
      `/api/applications/${applicationId}/users/${userId}/devices`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return deviceListSchema.parse(response.json());
  };

  const storedUser = async (id: string) =>
    (await db().select().from(appUsers).where(eq(appUsers.id, id)))[0]!;

  const eventsOf = async (applicationId: number, event: string) =>
    db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.applicationId, applicationId), eq(activityLogs.event, event)))
      .orderBy(asc(activityLogs.id));

  describe('seats', () => {
    it('with the default limit of 1, binds the first device and refuses another, as the seed did', async () => {
      const { application, user } = await setUp({
        hwidMismatchMessage: 'Locked to another PC',
      });
      expect(await login(application.apiKey, user.username, 'PC-A')).toMatchObject({
        code: 'OK',
        hwid_locked: true,
      });
      expect(await login(application.apiKey, user.username, 'PC-B')).toMatchObject({
        code: 'HWID_MISMATCH',
        message: 'Locked to another PC',
      });
      expect((await login(application.apiKey, user.username, 'PC-A')).code).toBe('OK');
      const stored = await storedUser(user.id);
      expect({ hwid: stored.hwid, deviceCount: stored.deviceCount }).toEqual({
        hwid: 'PC-A',
        deviceCount: 1,
      });
    });

    it('with a limit of 3, binds three machines with their names and refuses a fourth', async () => {
      const { application, user } = await setUp({ maxDevices: 3 });
      for (const [hwid, name] of [
        ['PC-1', 'Desk'],
        ['PC-2', 'Laptop'],
        ['PC-3', null],
      ] as const) {
        clock.advance(1_000);
        const answer = await login(application.apiKey, user.username, hwid, {
          device_name: name,
        });
        expect(answer.code, hwid).toBe('OK');
      }
      expect((await login(application.apiKey, user.username, 'PC-4')).code).toBe('HWID_MISMATCH');
      // Each bound machine still logs in; a name sent later renames it.
      expect(
        (await login(application.apiKey, user.username, 'PC-3', { device_name: 'Tower' })).code,
      ).toBe('OK');
      const devices = await devicesOf(application.id, user.id);
      expect(devices.map((device) => [device.hwid, device.name, device.lastIp])).toEqual([
        ['PC-1', 'Desk', '127.0.0.2'],
        ['PC-2', 'Laptop', '127.0.0.2'],
        ['PC-3', 'Tower', '127.0.0.2'],
      ]);
      expect((await storedUser(user.id)).deviceCount).toBe(3);
      expect((await eventsOf(application.id, 'device_added')).map((row) => row.metadata)).toEqual([
        { hwid: 'PC-1', deviceName: 'Desk', code: 'OK' },
        { hwid: 'PC-2', deviceName: 'Laptop', code: 'OK' },
        { hwid: 'PC-3', code: 'OK' },
      ]);
    });

    it('lets an active plan raise the limit, and leaves the newest devices out once it lapses', async () => {
      const { application, user } = await setUp({ maxDevices: 1 });
      const plan = await createPlanViaApi(testApp.app, owner, application.id, {
        durationDays: 30,
        maxDevices: 2,
      });
      await grantSubscriptionViaApi(
        testApp.app,
        owner,
        { applicationId: application.id, userId: user.id },
        { planId: plan.id },
      );
      expect((await login(application.apiKey, user.username, 'HOME')).code).toBe('OK');
      clock.advance(1_000);
      expect((await login(application.apiKey, user.username, 'WORK')).code).toBe('OK');
      expect((await login(application.apiKey, user.username, 'THIRD')).code).toBe('HWID_MISMATCH');

      clock.advance(31 * DAY_MS);
      owner = await signInOwner(testApp.app, owner.account);
      // Back to one seat: the first bound machine keeps it; the second is over the limit.
      expect((await login(application.apiKey, user.username, 'HOME')).code).toBe('OK');
      expect((await login(application.apiKey, user.username, 'WORK')).code).toBe('HWID_MISMATCH');
      const listed = await testApp.app.inject({
        method: 'GET',
        url: `/api/applications/${application.id}/users?search=${user.username}`,
        headers: owner.headers,
      });
      expect(listed.json()[0]).toMatchObject({ deviceCount: 2, deviceLimit: 1 });
    });

    it('binds exactly one of two first logins racing from two machines for one seat', async () => {
      for (let round = 0; round < 3; round += 1) {
        const { application, user } = await setUp();
        const answers = await Promise.all([
          login(application.apiKey, user.username, 'RACE-A'),
          login(application.apiKey, user.username, 'RACE-B'),
        ]);
        expect(answers.map((answer) => answer.code).sort()).toEqual(['HWID_MISMATCH', 'OK']);
        const devices = await db()
          .select()
          .from(appUserDevices)
          .where(eq(appUserDevices.appUserId, user.id));
        expect(devices).toHaveLength(1);
      }
    });

    it('binds nothing and refuses a login without a hwid under the lock', async () => {
      const { application, user } = await setUp({ maxDevices: 5 });
      expect((await login(application.apiKey, user.username, undefined)).code).toBe(
        'HWID_MISMATCH',
      );
      expect(await devicesOf(application.id, user.id)).toEqual([]);
    });
  });

  describe('owner releases', () => {
    it('lists, releases one and releases all; the seed reset does the same', async () => {
      const { application, user } = await setUp({ maxDevices: 2 });
      await login(application.apiKey, user.username, 'ONE');
      clock.advance(1_000);
      await login(application.apiKey, user.username, 'TWO');
      const [first, second] = await devicesOf(application.id, user.id);
      const base = `/api/applications/${application.id}/users/${user.id}/devices`;

      const releasedOne = await ownerCall('DELETE', `${base}/${first!.id}`);
      expect(releasedOne.statusCode, releasedOne.body).toBe(200);
      expect(releasedOne.json()).toEqual({ released: 1 });
      expect((await devicesOf(application.id, user.id)).map((device) => device.hwid)).toEqual([
        'TWO',
      ]);
      expect((await storedUser(user.id)).hwid).toBe('TWO');
      // Its seat is free: a new machine binds.
      expect((await login(application.apiKey, user.username, 'THREE')).code).toBe('OK');
      expect((await ownerCall('DELETE', `${base}/${first!.id}`)).statusCode).toBe(404);

      const releasedAll = await ownerCall('DELETE', base);
      expect(releasedAll.json()).toEqual({ released: 2 });
      expect(await storedUser(user.id)).toMatchObject({ hwid: null, deviceCount: 0 });
      expect(second).toBeDefined();

      await login(application.apiKey, user.username, 'FOUR');
      const reset = await ownerCall(
        'POST',
        `/api/applications/${application.id}/users/${user.id}/reset-hwid`,
      );
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toMatchObject({ hwid: null, deviceCount: 0 });
      const released = await eventsOf(application.id, 'device_released');
      expect(released.map((row) => [row.metadata?.hwid, row.metadata?.releasedBy])).toEqual([
        ['ONE', 'owner'],
        ['TWO', 'owner'],
        ['THREE', 'owner'],
        ['FOUR', 'owner'],
      ]);
    });

    it('treats the owner setting a HWID as the user\u2019s only device', async () => {
      const { application, user } = await setUp({ maxDevices: 3 });
      await login(application.apiKey, user.username, 'A');
      clock.advance(1_000);
      await login(application.apiKey, user.username, 'B');
      const url = `/api/applications/${application.id}/users/${user.id}`;
      const unchanged = await testApp.app.inject({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { hwid: 'A' },
      });
      expect(unchanged.json()).toMatchObject({ hwid: 'A', deviceCount: 2 });
      const replaced = await testApp.app.inject({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { hwid: 'C' },
      });
      expect(replaced.json()).toMatchObject({ hwid: 'C', deviceCount: 1 });
      expect((await login(application.apiKey, user.username, 'A')).code).toBe('OK');
    });
  });

  describe('end-user resets', () => {
    it('refuses when the application does not allow them, releasing nothing', async () => {
      const { application, user } = await setUp();
      await login(application.apiKey, user.username, 'OLD');
      const answer = await resetOwn(application.apiKey, { username: user.username, all: true });
      expect(answer.status).toBe(200);
      expect(clientDeviceResetResponseSchema.parse(answer.body)).toMatchObject({
        success: false,
        code: 'RESET_NOT_ALLOWED',
        next_reset_at: null,
      });
      expect(await devicesOf(application.id, user.id)).toHaveLength(1);
    });

    it('releases a device once per cooldown, with the time of the next allowed reset', async () => {
      const { application, user } = await setUp({
        isSelfServiceReset: true,
        resetCooldownHours: 24,
      });
      await login(application.apiKey, user.username, 'OLD-PC');

      const wrong = await resetOwn(application.apiKey, {
        username: user.username,
        password: 'not it',
        hwid: 'OLD-PC',
      });
      expect(wrong.body).toMatchObject({ success: false, code: 'INVALID_CREDENTIALS' });
      const unknown = await resetOwn(application.apiKey, {
        username: user.username,
        hwid: 'NEVER-SEEN',
      });
      expect(unknown.body).toMatchObject({ success: false, code: 'DEVICE_NOT_FOUND' });
      expect(await devicesOf(application.id, user.id)).toHaveLength(1);

      const now = clock.now();
      const released = await resetOwn(application.apiKey, {
        username: user.username,
        hwid: 'OLD-PC',
      });
      expect(released.body).toMatchObject({
        success: true,
        code: 'OK',
        released: 1,
        next_reset_at: new Date(now.getTime() + 24 * 3_600_000).toISOString(),
      });
      expect((await login(application.apiKey, user.username, 'NEW-PC')).code).toBe('OK');

      clock.advance(3_600_000);
      const again = await resetOwn(application.apiKey, { username: user.username, all: true });
      expect(again.body).toMatchObject({
        success: false,
        code: 'RESET_COOLDOWN',
        next_reset_at: new Date(now.getTime() + 24 * 3_600_000).toISOString(),
      });
      clock.advance(23 * 3_600_000);
      expect(
        (await resetOwn(application.apiKey, { username: user.username, all: true })).body,
      ).toMatchObject({ code: 'OK', released: 1 });
      const events = await eventsOf(application.id, 'device_released');
      expect(events.map((row) => [row.metadata?.hwid, row.metadata?.releasedBy])).toEqual([
        ['OLD-PC', 'end_user'],
        ['NEW-PC', 'end_user'],
      ]);
    });

    it('releases once when two resets race', async () => {
      const { application, user } = await setUp({ isSelfServiceReset: true });
      await login(application.apiKey, user.username, 'PC');
      const answers = await Promise.all([
        resetOwn(application.apiKey, { username: user.username, all: true }),
        resetOwn(application.apiKey, { username: user.username, all: true }),
      ]);
      expect(answers.map((answer) => answer.body.code).sort()).toEqual(['OK', 'RESET_COOLDOWN']);
    });

    it('refuses a paused user, and throttles repeated wrong passwords like login', async () => {
      const { application, user } = await setUp({ isSelfServiceReset: true });
      await db().update(appUsers).set({ isPaused: true }).where(eq(appUsers.id, user.id));
      expect(
        (await resetOwn(application.apiKey, { username: user.username, all: true })).body.code,
      ).toBe('ACCOUNT_DISABLED');
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 12; attempt += 1) {
        const answer = await resetOwn(application.apiKey, {
          username: user.username,
          password: `guess ${attempt}`,
          all: true,
        });
        statuses.push(answer.status);
      }
      expect(statuses).toContain(429);
    });

    it('answers 400 without hwid or all', async () => {
      const { application, user } = await setUp();
      expect((await resetOwn(application.apiKey, { username: user.username })).status).toBe(400);
    });
  });

  it('releases a device unseen for releaseInactiveAfterDays when a new one needs its seat', async () => {
    const { application, user } = await setUp({ releaseInactiveAfterDays: 30 });
    await login(application.apiKey, user.username, 'STALE');
    clock.advance(10 * DAY_MS);
    expect((await login(application.apiKey, user.username, 'FRESH')).code).toBe('HWID_MISMATCH');
    clock.advance(21 * DAY_MS);
    expect((await login(application.apiKey, user.username, 'FRESH')).code).toBe('OK');
    owner = await signInOwner(testApp.app, owner.account);
    expect((await devicesOf(application.id, user.id)).map((device) => device.hwid)).toEqual([
      'FRESH',
    ]);
    const [released] = await eventsOf(application.id, 'device_released');
    expect(released!.metadata).toMatchObject({ hwid: 'STALE', releasedBy: 'inactivity' });
  });

  it('keeps a device whose session still heartbeats, however old its login', async () => {
    const { application, user } = await setUp({ releaseInactiveAfterDays: 30 });
    const answer = await login(application.apiKey, user.username, 'RUNNING');
    await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'start', user_id: answer.user_id, session_token: answer.session_token },
    });
    clock.advance(31 * DAY_MS);
    const beat = await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'heartbeat', session_token: answer.session_token },
    });
    expect(beat.json()).toMatchObject({ code: 'OK' });
    await testApp.app.activity.flush();
    expect((await login(application.apiKey, user.username, 'OTHER')).code).toBe('HWID_MISMATCH');
  });

  it("ends the released device's sessions at once, and no other", async () => {
    const { application, user } = await setUp({ maxDevices: 2 });
    const startSession = async (hwid: string) => {
      const answer = await login(application.apiKey, user.username, hwid);
      const started = await callClientApi(testApp.app, 'session/track', {
        apiKey: application.apiKey,
        body: {
          action: 'start',
          user_id: answer.user_id,
          session_token: answer.session_token,
          hwid,
        },
      });
      expect(started.json()).toMatchObject({ code: 'OK' });
      return answer.session_token!;
    };
    const heartbeat = async (token: string) =>
      (
        await callClientApi(testApp.app, 'session/track', {
          apiKey: application.apiKey,
          body: { action: 'heartbeat', session_token: token },
        })
      ).json().code as string;
    const onDesk = await startSession('DESK');
    clock.advance(1_000);
    const onLaptop = await startSession('LAPTOP');
    expect([await heartbeat(onDesk), await heartbeat(onLaptop)]).toEqual(['OK', 'OK']);

    const [desk] = await devicesOf(application.id, user.id);
    await ownerCall(
      'DELETE',
      `/api/applications/${application.id}/users/${user.id}/devices/${desk!.id}`,
    );
    expect([await heartbeat(onDesk), await heartbeat(onLaptop)]).toEqual(['SESSION_INVALID', 'OK']);
  });

  it('queues webhook deliveries for device events', async () => {
    const { application, user } = await setUp();
    await createWebhookViaApi(testApp.app, owner, {
      applicationId: application.id,
      events: ['device_added', 'device_released'],
    });
    await login(application.apiKey, user.username, 'HOOKED');
    await ownerCall('DELETE', `/api/applications/${application.id}/users/${user.id}/devices`);
    const deliveries = await db()
      .select({ event: webhookDeliveries.event, payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .orderBy(asc(webhookDeliveries.id));
    const mine = deliveries.filter(
      (delivery) =>
        (delivery.payload as { data: { application: { id: number } } }).data.application.id ===
        application.id,
    );
    expect(mine.map((delivery) => delivery.event).sort()).toEqual([
      'device_added',
      'device_released',
    ]);
    expect((mine[0]!.payload as { data: { hwid: string } }).data.hwid).toBe('HOOKED');
  });

  it('answers 404 for another owner\u2019s user, and for an unknown one', async () => {
    const { application } = await setUp();
    const response = await ownerCall(
      'GET',
      `/api/applications/${application.id}/users/00000000-0000-4000-8000-000000000000/devices`,
    );
    expect(response.statusCode).toBe(404);
  });
});
