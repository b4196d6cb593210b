import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  applicationSchema,
  clientAuthResponseSchema,
  clientLicenseCheckoutResponseSchema,
  clientVerifyResponseSchema,
  errorBodySchema,
  planSchema,
  subscriptionListSchema,
  type Application,
} from '@latchkey/contracts';
import { activityLogs, machineTrials, plans, webhookDeliveries } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createWebhookViaApi,
} from '../../../test/factories.ts';
import { clientOutcome } from '../../../test/client-calls.ts';
import { signInOwnerForSuite, startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';

const DAY_MS = 86_400_000;

/**
 * Trials bound to the machine: one per HWID of an application, started by the program with
 * POST /api/v1/trial. Two instances on one database, as a deployment of several runs.
 */
describe('machine-bound trials', () => {
  const start = new Date('2026-06-01T09:00:00Z');
  const clock = createManualClock(start);
  const { first, second } = startTwoInstancesForSuite({ clock });
  const owner = signInOwnerForSuite(first);

  const ownerRequest = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    first.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });

  const trial = async (
    instance: typeof first,
    application: Application,
    body: { hwid?: string; username?: string; version?: string },
  ) =>
    clientOutcome(
      clientAuthResponseSchema,
      // The application's version unless the test says otherwise, as its current program sends.
      await callClientApi(instance.app, 'trial', {
        apiKey: application.apiKey,
        body: { version: application.version, ...body },
      }),
    );
  const verify = async (instance: typeof first, application: Application, userId: string) =>
    clientOutcome(
      clientVerifyResponseSchema,
      await callClientApi(instance.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: userId },
      }),
    );
  const offerTrial = async (
    application: Application,
    settings: { trialDays?: number | null; trialEntitlements?: string[] },
  ) => {
    const response = await ownerRequest('PUT', `/api/applications/${application.id}`, settings);
    expect(response.statusCode, response.body).toBe(200);
    return applicationSchema.parse(response.json());
  };
  const trialEvents = (application: Application) =>
    first.database.db
      .select({ appUserId: activityLogs.appUserId, metadata: activityLogs.metadata })
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, application.id),
          eq(activityLogs.event, 'trial_started'),
        ),
      );

  it('takes the trial settings, checks them, and keeps its plan out of the owner’s plans', async () => {
    clock.set(start);
    const application = await createApplicationViaApi(first.app, owner);
    expect(applicationSchema.parse(application)).toMatchObject({
      trialDays: null,
      trialEntitlements: [],
    });
    const offered = await offerTrial(application, {
      trialDays: 14,
      trialEntitlements: ['PRO', 'EXPORT', 'PRO'],
    });
    expect(offered).toMatchObject({ trialDays: 14, trialEntitlements: ['EXPORT', 'PRO'] });

    for (const [settings, message] of [
      [{ trialDays: 0 }, 'Trial days must be between 1 and 365'],
      [{ trialDays: 366 }, 'Trial days must be between 1 and 365'],
      [{ trialDays: 1.5 }, 'Trial days must be a whole number'],
      [{ trialEntitlements: ['two words'] }, 'Entitlements must be 1 to 64'],
    ] as const) {
      const refused = await ownerRequest('PUT', `/api/applications/${application.id}`, settings);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(errorBodySchema.parse(refused.json()).message).toContain(message);
    }

    // The trial plan is the server's: not listed, not editable, not sold, not granted by hand,
    // and an owner's plan may share its name.
    const [trialPlan] = await first.database.db
      .select({ id: plans.id, entitlements: plans.entitlements, durationDays: plans.durationDays })
      .from(plans)
      .where(and(eq(plans.applicationId, application.id), eq(plans.isTrial, true)));
    expect(trialPlan).toMatchObject({ entitlements: ['EXPORT', 'PRO'], durationDays: 14 });
    const listed = await ownerRequest('GET', `/api/applications/${application.id}/plans`);
    expect(listed.statusCode).toBe(200);
    expect(planSchema.array().parse(listed.json())).toEqual([]);
    const named = await ownerRequest('POST', `/api/applications/${application.id}/plans`, {
      name: 'Trial',
    });
    expect(named.statusCode, named.body).toBe(201);
    const edited = await ownerRequest(
      'PUT',
      `/api/applications/${application.id}/plans/${trialPlan?.id}`,
      { name: 'Mine' },
    );
    expect(edited.statusCode).toBe(404);
    const sold = await ownerRequest('POST', `/api/applications/${application.id}/licenses`, {
      planId: trialPlan?.id,
      count: 1,
    });
    expect(sold.statusCode, sold.body).toBe(404);
    const user = await createAppUserViaApi(first.app, owner, application.id);
    const granted = await ownerRequest(
      'POST',
      `/api/applications/${application.id}/users/${user.id}/subscriptions`,
      { planId: trialPlan?.id },
    );
    expect(granted.statusCode, granted.body).toBe(404);
  });

  it('starts one trial per machine, and a reinstall or a new name gets the same one', async () => {
    clock.set(start);
    const application = await createApplicationViaApi(first.app, owner);
    await createWebhookViaApi(first.app, owner, { events: ['trial_started'] });

    // Not offered yet, and a trial needs the machine's id.
    expect(await trial(first, application, { hwid: 'MACHINE-A' })).toMatchObject({
      success: false,
      code: 'TRIAL_UNAVAILABLE',
    });
    const noHwid = await callClientApi(first.app, 'trial', {
      apiKey: application.apiKey,
      body: {},
    });
    expect(noHwid.statusCode).toBe(400);
    expect(noHwid.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'hwid: hwid is required',
    });

    await offerTrial(application, { trialDays: 7, trialEntitlements: ['PRO'] });
    const started = await trial(first, application, { hwid: 'MACHINE-A', version: '1.0.0' });
    const endsAt = new Date(start.getTime() + 7 * DAY_MS).toISOString();
    expect(started).toMatchObject({
      success: true,
      code: 'OK',
      expires_at: endsAt,
      entitlements: ['PRO'],
      session_token: expect.stringMatching(/^sess_/),
      username: expect.stringMatching(/^trial-[0-9a-f]{12}$/),
    });
    const userId = started.user_id ?? '';

    // The owner sees the trial as the user's subscription of "Trial", ending with it.
    const held = await ownerRequest(
      'GET',
      `/api/applications/${application.id}/users/${userId}/subscriptions`,
    );
    expect(subscriptionListSchema.parse(held.json())).toEqual([
      expect.objectContaining({ planName: 'Trial', expiresAt: endsAt, entitlements: ['PRO'] }),
    ]);

    // A day later the program is reinstalled, and then someone makes a new account: both get
    // the machine's trial, on either instance.
    clock.set(new Date(start.getTime() + DAY_MS));
    expect(await trial(second, application, { hwid: 'MACHINE-A' })).toMatchObject({
      code: 'OK',
      user_id: userId,
      expires_at: endsAt,
    });
    expect(
      await trial(first, application, { hwid: 'MACHINE-A', username: 'fresh-account' }),
    ).toMatchObject({ code: 'OK', user_id: userId, username: started.username });

    // Another machine has its own trial, under the name it asked for.
    const other = await trial(second, application, { hwid: 'MACHINE-B', username: 'bench-pc' });
    expect(other).toMatchObject({
      code: 'OK',
      username: 'bench-pc',
      expires_at: expect.any(String),
    });
    expect(other.user_id).not.toBe(userId);
    // A name another account has is refused, and the machine keeps no trial.
    expect(
      await trial(first, application, { hwid: 'MACHINE-C', username: 'bench-pc' }),
    ).toMatchObject({ success: false, code: 'USERNAME_TAKEN' });
    const machines = await first.database.db
      .select({ hwid: machineTrials.hwid })
      .from(machineTrials)
      .where(eq(machineTrials.applicationId, application.id));
    expect(machines.map((row) => row.hwid).sort()).toEqual(['MACHINE-A', 'MACHINE-B']);

    // One trial_started event per machine, with its webhook deliveries queued.
    const events = await trialEvents(application);
    expect(events).toHaveLength(2);
    expect(events).toContainEqual({
      appUserId: userId,
      metadata: expect.objectContaining({ hwid: 'MACHINE-A', trial_days: 7, ends_at: endsAt }),
    });
    const deliveries = await first.database.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.event, 'trial_started'));
    expect(deliveries.length).toBeGreaterThanOrEqual(2);

    // Changing the trial's entitlements reaches the running trials' verify at once.
    expect(await verify(second, application, userId)).toMatchObject({ entitlements: ['PRO'] });
    await offerTrial(application, { trialEntitlements: ['PRO', 'TEAM'] });
    expect(await verify(second, application, userId)).toMatchObject({
      code: 'OK',
      entitlements: ['PRO', 'TEAM'],
    });

    // Once the week is over the trial has ended: the trial call says so, and verify refuses
    // the account as any other whose time is up. A new name changes nothing.
    clock.set(new Date(start.getTime() + 7 * DAY_MS + 1000));
    expect(await trial(second, application, { hwid: 'MACHINE-A' })).toMatchObject({
      success: false,
      code: 'TRIAL_EXPIRED',
      expires_at: endsAt,
    });
    expect(
      await trial(first, application, { hwid: 'MACHINE-A', username: 'another-try' }),
    ).toMatchObject({ code: 'TRIAL_EXPIRED' });
    expect(await verify(first, application, userId)).toMatchObject({
      success: false,
      code: 'ACCOUNT_EXPIRED',
    });

    // The vendor extends a trial by extending its account.
    const extendedUntil = new Date(start.getTime() + 10 * DAY_MS).toISOString();
    const extended = await ownerRequest(
      'PUT',
      `/api/applications/${application.id}/users/${userId}`,
      { expiresAt: extendedUntil },
    );
    expect(extended.statusCode, extended.body).toBe(200);
    expect(await trial(first, application, { hwid: 'MACHINE-A' })).toMatchObject({
      code: 'OK',
      expires_at: extendedUntil,
    });

    // Deleting the trial account does not give the machine a new trial.
    const deleted = await ownerRequest(
      'DELETE',
      `/api/applications/${application.id}/users/${userId}`,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await trial(second, application, { hwid: 'MACHINE-A' })).toMatchObject({
      success: false,
      code: 'TRIAL_USED',
    });
    // Turning the trial off stops new ones; a running trial keeps its time.
    await offerTrial(application, { trialDays: null });
    expect(await trial(first, application, { hwid: 'MACHINE-D' })).toMatchObject({
      code: 'TRIAL_UNAVAILABLE',
    });
    expect(await trial(first, application, { hwid: 'MACHINE-B' })).toMatchObject({ code: 'OK' });
  });

  it('starts one trial when a machine calls on both instances at once', async () => {
    clock.set(start);
    const application = await createApplicationViaApi(first.app, owner);
    await offerTrial(application, { trialDays: 3, trialEntitlements: ['PRO'] });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        trial(index % 2 === 0 ? first : second, application, {
          hwid: 'RACED-MACHINE',
          // Half of them also race for the same name.
          ...(index % 4 === 0 ? { username: 'raced-name' } : {}),
        }),
      ),
    );
    expect(answers.map((answer) => answer.code)).toEqual(Array(8).fill('OK'));
    expect(new Set(answers.map((answer) => answer.user_id)).size).toBe(1);
    expect(await trialEvents(application)).toHaveLength(1);
  });

  it('gives a trial an offline licence with its entitlements and end', async () => {
    clock.set(start);
    const application = await createApplicationViaApi(first.app, owner);
    await offerTrial(application, { trialDays: 2, trialEntitlements: ['PRO'] });
    const started = await trial(first, application, { hwid: 'LAPTOP' });
    const tracked = await callClientApi(first.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'start', session_token: started.session_token, user_id: started.user_id },
    });
    expect(tracked.json()).toMatchObject({ code: 'OK' });
    const checkout = clientOutcome(
      clientLicenseCheckoutResponseSchema,
      await callClientApi(first.app, 'license/checkout', {
        apiKey: application.apiKey,
        body: { session_token: started.session_token, ttl_seconds: 7 * 86_400 },
      }),
    );
    // The licence ends with the trial, not a week later.
    expect(checkout).toMatchObject({
      code: 'OK',
      valid_until: new Date(start.getTime() + 2 * DAY_MS).toISOString(),
    });
  });
});
