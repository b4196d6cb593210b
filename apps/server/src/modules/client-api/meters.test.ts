import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  clientAuthResponseSchema,
  clientLicenseCheckoutResponseSchema,
  clientUseMeterResponseSchema,
  applicationSchema,
  clientVerifyResponseSchema,
  errorBodySchema,
  portalAccountSchema,
  planSchema,
  userMeterListSchema,
  type AppUser,
  type Application,
  type CreatePlanRequest,
} from '@latchkey/contracts';
import { activityLogs, webhookDeliveries } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createApiTokenViaApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createPlanHolderViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
  grantSubscriptionViaApi,
} from '../../../test/factories.ts';
import { clientOutcome, startClientSession } from '../../../test/client-calls.ts';
import { signInOwnerForSuite, startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';
import { testConsoleOrigin } from '../../../test/test-app.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * Usage meters: a plan's allowance per period, counted by programs with meters/{name}/use.
 * Two instances on one database count into the same meters, as a deployment of several does.
 */
describe('usage meters', () => {
  // A Saturday late in May: the month ends in three days, the week tomorrow night.
  const start = new Date('2026-05-30T12:00:00Z');
  const clock = createManualClock(start);
  const { first, second } = startTwoInstancesForSuite({ clock });
  const owner = signInOwnerForSuite(first);

  const ownerRequest = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    first.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });

  const use = async (
    instance: typeof first,
    application: Application,
    name: string,
    body: { session_token: string; amount?: number; idempotency_key?: string },
  ) =>
    clientOutcome(
      clientUseMeterResponseSchema,
      await callClientApi(instance.app, `meters/${name}/use`, {
        apiKey: application.apiKey,
        body,
      }),
    );
  const verify = async (instance: typeof first, application: Application, user: AppUser) =>
    clientOutcome(
      clientVerifyResponseSchema,
      await callClientApi(instance.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: user.id },
      }),
    );
  const metersOf = async (application: Application, user: AppUser) => {
    const response = await ownerRequest(
      'GET',
      `/api/applications/${application.id}/users/${user.id}/meters`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return userMeterListSchema.parse(response.json());
  };
  const meterEvents = (application: Application) =>
    first.database.db
      .select({
        success: activityLogs.success,
        metadata: activityLogs.metadata,
      })
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, application.id),
          eq(activityLogs.event, 'meter_exhausted'),
        ),
      )
      .orderBy(desc(activityLogs.id));

  /** An application, a plan with `meters`, and a user holding it with a live session. */
  const setUp = async (meters: CreatePlanRequest['meters']) => {
    clock.set(start);
    const application = await createApplicationViaApi(first.app, owner);
    const { plan, user } = await createPlanHolderViaApi(first.app, owner, application.id, {
      plan: { meters },
      user: { password: PASSWORD },
    });
    const token = await startClientSession(first.app, application, user, PASSWORD);
    return { application, plan, user, token };
  };

  it('takes meters on a plan, with their defaults, and refuses malformed ones', async () => {
    const application = await createApplicationViaApi(first.app, owner);
    const created = await ownerRequest('POST', `/api/applications/${application.id}/plans`, {
      name: 'Metered',
      meters: [{ name: 'exports', allowance: 500 }],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(planSchema.parse(created.json()).meters).toEqual([
      { name: 'exports', allowance: 500, resetEvery: 'month', overage: 'refuse' },
    ]);
    for (const [meters, message] of [
      [[{ name: 'two words', allowance: 1 }], 'Meter names must be'],
      [
        [
          { name: 'a', allowance: 1 },
          { name: 'a', allowance: 2 },
        ],
        'Each meter of a plan needs its own name',
      ],
      [[{ name: 'a', allowance: -1 }], 'Allowance must be a whole number'],
      [[{ name: 'a', allowance: 1, resetEvery: 'hour' }], 'resetEvery must be'],
    ] as const) {
      const refused = await ownerRequest('POST', `/api/applications/${application.id}/plans`, {
        name: `Bad ${message}`,
        meters,
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(errorBodySchema.parse(refused.json()).message).toContain(message);
    }
  });

  it('answers where the meters stand in login, verify and the offline licence', async () => {
    const { application, user, token } = await setUp([
      { name: 'exports', allowance: 500, resetEvery: 'month' },
      { name: 'credits', allowance: 10_000, resetEvery: 'none', overage: 'count' },
    ]);
    const fresh = [
      {
        name: 'credits',
        allowance: 10_000,
        used: 0,
        remaining: 10_000,
        overage: 0,
        resets_at: null,
      },
      {
        name: 'exports',
        allowance: 500,
        used: 0,
        remaining: 500,
        overage: 0,
        resets_at: '2026-06-01T00:00:00.000Z',
      },
    ];
    const login = clientOutcome(
      clientAuthResponseSchema,
      await callClientApi(first.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: PASSWORD, version: application.version },
      }),
    );
    expect(login.meters).toEqual(fresh);
    // Both instances cache the standing: only the increment's announcement can drop the
    // second's before its answer is back.
    for (const instance of [first, second]) {
      expect((await verify(instance, application, user)).meters).toEqual(fresh);
    }

    expect(await use(first, application, 'exports', { session_token: token, amount: 20 })).toEqual({
      success: true,
      message: 'Usage counted',
      code: 'OK',
      name: 'exports',
      allowance: 500,
      used: 20,
      remaining: 480,
      overage: 0,
      resets_at: '2026-06-01T00:00:00.000Z',
      replayed: false,
    });
    // Verify answers from a cached standing: the increment, counted on the first instance,
    // dropped it on both by the time it answered.
    for (const instance of [first, second]) {
      expect((await verify(instance, application, user)).meters?.[1]).toMatchObject({
        name: 'exports',
        used: 20,
        remaining: 480,
      });
    }
    const checkout = clientOutcome(
      clientLicenseCheckoutResponseSchema,
      await callClientApi(first.app, 'license/checkout', {
        apiKey: application.apiKey,
        body: { session_token: token },
      }),
    );
    const content = JSON.parse(
      Buffer.from(checkout.license!.split('.')[1]!, 'base64url').toString('utf8'),
    ) as { meters?: { name: string; used: number }[] };
    expect(content.meters?.[1]).toMatchObject({
      name: 'exports',
      used: 20,
    });
    expect(await metersOf(application, user)).toEqual([
      expect.objectContaining({
        name: 'credits',
        used: 0,
        resetEvery: 'none',
        periodStartedAt: null,
      }),
      {
        name: 'exports',
        allowance: 500,
        used: 20,
        remaining: 480,
        overage: 0,
        resetEvery: 'month',
        overageMode: 'refuse',
        periodStartedAt: '2026-05-01T00:00:00.000Z',
        resetsAt: '2026-06-01T00:00:00.000Z',
      },
    ]);

    // A redemption answers them too, the redeemed plan's meters among them.
    const extra = await createPlanViaApi(first.app, owner, application.id, {
      meters: [{ name: 'renders', allowance: 3, resetEvery: 'day' }],
    });
    const [key] = await generateLicensesViaApi(first.app, owner, application.id, {
      planId: extra.id,
    });
    const redeemed = clientOutcome(
      clientAuthResponseSchema,
      await callClientApi(first.app, 'license/redeem', {
        apiKey: application.apiKey,
        body: { username: user.username, password: PASSWORD, license_key: key!.key },
      }),
    );
    expect(redeemed.meters?.map((meter) => [meter.name, meter.used])).toEqual([
      ['credits', 0],
      ['exports', 20],
      ['renders', 0],
    ]);

    // A user without a metered plan has no meters field at all.
    const plain = await createAppUserViaApi(first.app, owner, application.id);
    expect(await verify(first, application, plain)).not.toHaveProperty('meters');
  });

  it('refuses past a refusing meter, counts overage on a counting one, and announces each once', async () => {
    const { application, token } = await setUp([
      { name: 'exports', allowance: 10, resetEvery: 'day' },
      { name: 'credits', allowance: 5, resetEvery: 'month', overage: 'count' },
    ]);
    await ownerRequest('POST', '/api/webhooks', {
      url: 'https://hooks.example.com/meters',
      events: ['meter_exhausted'],
      applicationId: application.id,
    });
    expect(
      await use(first, application, 'exports', { session_token: token, amount: 8 }),
    ).toMatchObject({
      code: 'OK',
      used: 8,
    });
    expect(await use(second, application, 'exports', { session_token: token, amount: 3 })).toEqual({
      success: false,
      code: 'METER_EXHAUSTED',
      message: expect.any(String),
      name: 'exports',
      allowance: 10,
      used: 8,
      remaining: 2,
      overage: 0,
      resets_at: '2026-05-31T00:00:00.000Z',
    });
    // Nothing was counted: the two that remain still fit.
    expect(
      await use(first, application, 'exports', { session_token: token, amount: 2 }),
    ).toMatchObject({
      code: 'OK',
      used: 10,
      remaining: 0,
    });
    expect(await use(first, application, 'exports', { session_token: token })).toMatchObject({
      code: 'METER_EXHAUSTED',
      used: 10,
    });
    expect(
      await use(first, application, 'credits', { session_token: token, amount: 7 }),
    ).toMatchObject({
      code: 'OK',
      used: 7,
      remaining: 0,
      overage: 2,
    });
    expect(await use(first, application, 'missing', { session_token: token })).toMatchObject({
      success: false,
      code: 'METER_NOT_FOUND',
    });
    expect(
      await use(first, application, 'exports', {
        session_token: 'sess_notastartedsessionatall0123456789_1',
      }),
    ).toMatchObject({ code: 'SESSION_INVALID' });

    // The first refusal of the period, then reaching a counting meter's allowance: one event
    // each (a later refusal of the same period is not announced again).
    const events = await meterEvents(application);
    expect(events).toEqual([
      {
        success: true,
        metadata: expect.objectContaining({ meter: 'credits', code: 'OK', used: 7, allowance: 5 }),
      },
      {
        success: false,
        metadata: expect.objectContaining({ meter: 'exports', code: 'METER_EXHAUSTED', used: 8 }),
      },
    ]);
    const deliveries = await first.database.db
      .select({ event: webhookDeliveries.event })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.event, 'meter_exhausted'));
    expect(deliveries.length).toBeGreaterThanOrEqual(2);

    // The next day the daily meter starts again at 0, and is announced again when it fills.
    clock.set(new Date('2026-05-31T00:00:01Z'));
    expect(
      await use(second, application, 'exports', { session_token: token, amount: 10 }),
    ).toMatchObject({
      code: 'OK',
      used: 10,
      resets_at: '2026-06-01T00:00:00.000Z',
    });
    expect(await meterEvents(application)).toHaveLength(3);
  });

  it('never lets concurrent increments on two instances pass the allowance together', async () => {
    const { application, user, token } = await setUp([{ name: 'seats', allowance: 10 }]);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        use(index % 2 === 0 ? first : second, application, 'seats', { session_token: token }),
      ),
    );
    expect(answers.filter((answer) => answer.code === 'OK')).toHaveLength(10);
    expect(answers.filter((answer) => answer.code === 'METER_EXHAUSTED')).toHaveLength(6);
    expect(new Set(answers.filter((a) => a.code === 'OK').map((a) => a.used)).size).toBe(10);
    expect((await metersOf(application, user))[0]).toMatchObject({ used: 10, remaining: 0 });
  });

  it('counts a retried increment once, however the retries race', async () => {
    const { application, user, token } = await setUp([{ name: 'exports', allowance: 100 }]);
    const once = { session_token: token, amount: 5, idempotency_key: 'export-0001' };
    expect(await use(first, application, 'exports', once)).toMatchObject({
      used: 5,
      replayed: false,
    });
    expect(await use(second, application, 'exports', once)).toMatchObject({
      code: 'OK',
      used: 5,
      remaining: 95,
      replayed: true,
    });
    const racing = { session_token: token, amount: 3, idempotency_key: 'export-0002' };
    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        use(index % 2 === 0 ? first : second, application, 'exports', racing),
      ),
    );
    expect(raced.every((answer) => answer.code === 'OK' && answer.used === 8)).toBe(true);
    expect(raced.filter((answer) => !answer.replayed)).toHaveLength(1);
    expect((await metersOf(application, user))[0]).toMatchObject({ used: 8 });

    // The same key for another amount is a client's mistake, answered as a malformed request.
    const reused = await callClientApi(first.app, 'meters/exports/use', {
      apiKey: application.apiKey,
      body: { ...once, amount: 6 },
    });
    expect(reused.statusCode, reused.body).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'INVALID_REQUEST' });

    // A refused increment is not remembered: its retry is counted once there is room.
    const big = { session_token: token, amount: 95, idempotency_key: 'export-0003' };
    expect(await use(first, application, 'exports', big)).toMatchObject({
      code: 'METER_EXHAUSTED',
    });
    clock.set(new Date('2026-06-01T00:00:00Z'));
    expect(await use(second, application, 'exports', big)).toMatchObject({
      code: 'OK',
      used: 95,
      replayed: false,
    });
  });

  it('starts each period again at 0 exactly once when instances count across the boundary', async () => {
    const { application, user, token } = await setUp([
      { name: 'exports', allowance: 1_000, resetEvery: 'week' },
    ]);
    await use(first, application, 'exports', { session_token: token, amount: 400 });
    // Sunday night to Monday: a new ISO week.
    clock.set(new Date('2026-06-01T00:00:00Z'));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        use(index % 2 === 0 ? first : second, application, 'exports', {
          session_token: token,
          amount: 2,
        }),
      ),
    );
    // One reset, then every increment counted on top of it: never a second reset.
    expect(answers.map((answer) => answer.used).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 12 }, (_, index) => (index + 1) * 2),
    );
    expect(answers.every((answer) => answer.resets_at === '2026-06-08T00:00:00.000Z')).toBe(true);
    expect((await metersOf(application, user))[0]).toMatchObject({
      used: 24,
      periodStartedAt: '2026-06-01T00:00:00.000Z',
    });
    // Verify, answered from a standing cached before the boundary, moves to the new period too.
    clock.set(new Date('2026-06-08T00:00:00Z'));
    for (const instance of [first, second]) {
      expect((await verify(instance, application, user)).meters).toEqual([
        expect.objectContaining({ used: 0, resets_at: '2026-06-15T00:00:00.000Z' }),
      ]);
    }
  });

  it('shows the meters to the end user in the portal and to the management API', async () => {
    const { application, user, token } = await setUp([{ name: 'exports', allowance: 50 }]);
    await use(first, application, 'exports', { session_token: token, amount: 12 });
    const expected = {
      name: 'exports',
      allowance: 50,
      used: 12,
      remaining: 38,
      overage: 0,
      resetEvery: 'month',
      overageMode: 'refuse',
      periodStartedAt: '2026-05-01T00:00:00.000Z',
      resetsAt: '2026-06-01T00:00:00.000Z',
    };

    const portalOn = await ownerRequest('PUT', `/api/applications/${application.id}`, {
      portalEnabled: true,
    });
    const base = `/api/portal/${applicationSchema.parse(portalOn.json()).portalPublicId}`;
    const signedIn = await second.app.inject({
      method: 'POST',
      url: `${base}/session`,
      headers: { origin: testConsoleOrigin },
      payload: { username: user.username, password: PASSWORD },
    });
    const cookie = signedIn.cookies.find((each) => each.name === 'latchkey_portal');
    const account = await second.app.inject({
      url: `${base}/account`,
      headers: { cookie: `latchkey_portal=${cookie!.value}`, origin: testConsoleOrigin },
    });
    expect(account.statusCode, account.body).toBe(200);
    expect(portalAccountSchema.parse(account.json()).meters).toEqual([expected]);

    const { token: apiToken } = await createApiTokenViaApi(first.app, owner, {
      scopes: ['users:read'],
    });
    const managed = await second.app.inject({
      url: `/api/manage/v1/applications/${application.id}/users/${user.id}/meters`,
      headers: { authorization: `Bearer ${apiToken}` },
    });
    expect(managed.statusCode, managed.body).toBe(200);
    expect(userMeterListSchema.parse(managed.json())).toEqual([expected]);
  });

  it('adds up the allowances of one meter held through two plans', async () => {
    const { application, user, token } = await setUp([
      { name: 'exports', allowance: 500, resetEvery: 'month' },
    ]);
    const addOn = await createPlanViaApi(first.app, owner, application.id, {
      meters: [{ name: 'exports', allowance: 250, resetEvery: 'week', overage: 'count' }],
    });
    await grantSubscriptionViaApi(
      first.app,
      owner,
      { applicationId: application.id, userId: user.id },
      { planId: addOn.id },
    );
    expect(
      await use(first, application, 'exports', { session_token: token, amount: 800 }),
    ).toMatchObject({
      code: 'OK',
      allowance: 750,
      used: 800,
      overage: 50,
      resets_at: '2026-06-01T00:00:00.000Z',
    });
  });
});
