import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  appFileSchema,
  clientAuthResponseSchema,
  clientFileResponseSchema,
  clientVerifyResponseSchema,
  errorBodySchema,
  planSchema,
  subscriptionListSchema,
  type AppUser,
  type Application,
  type CreatePlanRequest,
} from '@latchkey/contracts';
import { activityLogs } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
  grantSubscriptionViaApi,
} from '../../../test/factories.ts';
import { clientOutcome } from '../../../test/client-calls.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { createDownloadToken } from '../files/index.ts';

const PASSWORD = 'correct horse battery staple';
const DAY = 86_400_000;

/**
 * "Buy once, a year of updates": a plan's updates window. The licence keeps working past it;
 * releases published after it are refused to the holder (login of that version, the file URL,
 * the download), who is held to the newest release published within it instead.
 */
describe('updates windows', () => {
  const start = new Date('2026-06-01T12:00:00Z');
  const clock = createManualClock(start);
  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const owned = (method: 'POST' | 'PUT', url: string, payload?: object) =>
    testApp.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
  const at = (days: number) => new Date(start.getTime() + days * DAY).toISOString();

  const upload = async (application: Application, version: string, requiresSession: boolean) => {
    const query = new URLSearchParams({
      name: `setup-${version}.exe`,
      version,
      requiresSession: String(requiresSession),
    });
    const uploaded = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/files?${query}`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(`release ${version}${requiresSession ? ' extras' : ''}`),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    return appFileSchema.parse(uploaded.json());
  };
  /** Uploads a public release and makes it the application's current version. */
  const release = async (application: Application, version: string) => {
    const file = await upload(application, version, false);
    const updated = await owned('PUT', `/api/applications/${application.id}`, {
      version,
      currentReleaseFileId: file.id,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    return file;
  };
  const login = async (application: Application, user: AppUser, version: string) =>
    clientOutcome(
      clientAuthResponseSchema,
      await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: PASSWORD, version },
      }),
    );
  const fileUrl = async (application: Application, fileId: string, sessionToken: string) =>
    clientOutcome(
      clientFileResponseSchema,
      await callClientApi(testApp.app, 'file', {
        apiKey: application.apiKey,
        body: { file_id: fileId, session_token: sessionToken },
      }),
    );
  const startSession = async (application: Application, user: AppUser, token: string) => {
    const started = await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'start', user_id: user.id, session_token: token },
    });
    expect(started.json()).toMatchObject({ code: 'OK' });
  };
  const redeem = async (application: Application, user: AppUser, licenseKey: string) => {
    const redeemed = await callClientApi(testApp.app, 'license/redeem', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, license_key: licenseKey },
    });
    return clientOutcome(clientAuthResponseSchema, redeemed);
  };
  const subscriptionsOf = async (application: Application, user: AppUser) => {
    const response = await testApp.app.inject({
      url: `/api/applications/${application.id}/users/${user.id}/subscriptions`,
      headers: owner.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return subscriptionListSchema.parse(response.json());
  };
  const setUp = async (plan: Partial<CreatePlanRequest>) => {
    clock.set(start);
    const application = await createApplicationViaApi(testApp.app, owner);
    const maintenance = await createPlanViaApi(testApp.app, owner, application.id, plan);
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    return { application, plan: maintenance, user };
  };

  it('holds a holder whose window ended to the newest release within it, and refuses newer ones', async () => {
    const { application, plan, user } = await setUp({ updatesForDays: 5 });
    expect(plan).toMatchObject({ updatesForDays: 5, updatesFrom: 'redemption' });
    const first = await release(application, '1.0');
    const firstExtras = await upload(application, '1.0', true);
    clock.set(new Date(at(1)));
    const [key] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
    });
    expect(await redeem(application, user, key!.key)).toMatchObject({
      code: 'OK',
      updates_until: at(6),
    });

    const loggedIn = await login(application, user, '1.0');
    expect(loggedIn).toMatchObject({ code: 'OK', updates_until: at(6) });
    await startSession(application, user, loggedIn.session_token!);
    const verified = clientOutcome(
      clientVerifyResponseSchema,
      await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: user.id },
      }),
    );
    expect(verified).toMatchObject({ code: 'OK', updates_until: at(6) });
    const checkedOut = await callClientApi(testApp.app, 'license/checkout', {
      apiKey: application.apiKey,
      body: { session_token: loggedIn.session_token },
    });
    const { license } = checkedOut.json<{ license: string }>();
    const payload = JSON.parse(Buffer.from(license.split('.')[1]!, 'base64url').toString('utf8'));
    expect(payload).toMatchObject({ updates_until: at(6) });

    // Ten days on the vendor ships 2.0: past this holder's window.
    clock.set(new Date(at(10)));
    const second = await release(application, '2.0');
    const secondExtras = await upload(application, '2.0', true);
    const offered = {
      version: '1.0',
      file_id: first.id,
      size: first.size,
      sha256: first.sha256,
    };
    expect(await login(application, user, '2.0')).toMatchObject({
      success: false,
      code: 'UPDATES_EXPIRED',
      update: offered,
    });
    // Logged as a version mismatch whose code tells the ended window apart.
    const [logged] = await testApp.database.db
      .select({ event: activityLogs.event, metadata: activityLogs.metadata })
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, application.id))
      .orderBy(desc(activityLogs.id))
      .limit(1);
    expect(logged).toMatchObject({
      event: 'version_mismatch',
      metadata: expect.objectContaining({ code: 'UPDATES_EXPIRED', version: '2.0' }),
    });
    expect(await login(application, user, '0.9')).toMatchObject({
      code: 'VERSION_MISMATCH',
      update: offered,
    });
    const kept = await login(application, user, '1.0');
    expect(kept).toMatchObject({ code: 'OK', updates_until: at(6) });
    await startSession(application, user, kept.session_token!);

    // Files that need a session are the holder's only if published within the window. (A
    // public release is anyone's: the window holds where the program runs, at login.)
    expect(await fileUrl(application, secondExtras.id, kept.session_token!)).toMatchObject({
      success: false,
      code: 'UPDATES_EXPIRED',
    });
    const allowed = await fileUrl(application, firstExtras.id, kept.session_token!);
    expect(allowed.code).toBe('OK');
    const download = await testApp.app.inject({ url: new URL(allowed.url!).pathname });
    expect(download.body).toBe('release 1.0 extras');

    // A URL for the newer release (as one issued before the window changed) is refused too.
    const token = createDownloadToken({
      fileId: secondExtras.id,
      expiresAt: new Date(clock.now().getTime() + 60_000),
      serverSecret: testApp.config.serverSecret,
      userId: user.id,
    });
    const refused = await testApp.app.inject({ url: `/api/v1/downloads/${token}` });
    expect(refused.statusCode).toBe(403);
    expect(errorBodySchema.parse(refused.json()).message).toBe(
      'This file was published after the updates period of the account the link was issued to',
    );

    // Someone without a window (no subscription) moves to 2.0 like before.
    const other = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    expect(await login(application, other, '2.0')).toMatchObject({
      code: 'OK',
      updates_until: null,
    });
    expect(await login(application, other, '1.0')).toMatchObject({
      code: 'VERSION_MISMATCH',
      update: { version: '2.0', file_id: second.id },
    });

    // Renewing extends the window from the later of now and its end: 2.0 is theirs.
    const [renewal] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
    });
    expect(await redeem(application, user, renewal!.key)).toMatchObject({
      code: 'OK',
      updates_until: at(15),
    });
    const renewed = await login(application, user, '2.0');
    expect(renewed).toMatchObject({ code: 'OK', updates_until: at(15) });
    await startSession(application, user, renewed.session_token!);
    expect((await fileUrl(application, secondExtras.id, renewed.session_token!)).code).toBe('OK');
    expect((await testApp.app.inject({ url: `/api/v1/downloads/${token}` })).statusCode).toBe(200);
  });

  it('starts a window counted from activation at the next login, once', async () => {
    const { application, plan, user } = await setUp({
      updatesForDays: 30,
      updatesFrom: 'activation',
    });
    const [granted] = await grantSubscriptionViaApi(
      testApp.app,
      owner,
      { applicationId: application.id, userId: user.id },
      { planId: plan.id },
    );
    expect(granted).toMatchObject({ updatesUntil: null, updatesPendingDays: 30 });

    // Two keys redeemed before the first login: their days wait together, then start at once.
    const buyer = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    const keys = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
      count: 2,
    });
    for (const key of keys) await redeem(application, buyer, key.key);
    expect((await subscriptionsOf(application, buyer))[0]).toMatchObject({
      updatesUntil: null,
      updatesPendingDays: 60,
    });

    clock.set(new Date(at(10)));
    expect(await login(application, user, application.version)).toMatchObject({
      code: 'OK',
      updates_until: at(40),
    });
    expect((await subscriptionsOf(application, user))[0]).toMatchObject({
      updatesUntil: at(40),
      updatesPendingDays: null,
    });
    clock.set(new Date(at(20)));
    expect(await login(application, user, application.version)).toMatchObject({
      updates_until: at(40),
    });

    expect(await login(application, buyer, application.version)).toMatchObject({
      updates_until: at(80),
    });
  });

  it('lifts the window while a plan without one is held, and lets the owner move it', async () => {
    const { application, plan, user } = await setUp({ updatesForDays: 10 });
    const unlimited = await createPlanViaApi(testApp.app, owner, application.id, {
      durationDays: 5,
    });
    const ids = { applicationId: application.id, userId: user.id };
    await grantSubscriptionViaApi(testApp.app, owner, ids, { planId: plan.id });
    await grantSubscriptionViaApi(testApp.app, owner, ids, { planId: unlimited.id });
    expect(await login(application, user, application.version)).toMatchObject({
      updates_until: null,
    });
    // Once the plan without a window lapses, the other's window is the holder's again.
    clock.set(new Date(at(6)));
    expect(await login(application, user, application.version)).toMatchObject({
      updates_until: at(10),
    });

    const [windowed] = (await subscriptionsOf(application, user)).filter(
      (subscription) => subscription.planId === plan.id,
    );
    const moved = await owned(
      'PUT',
      `/api/applications/${application.id}/users/${user.id}/subscriptions/${windowed!.id}`,
      { expiresAt: null, updatesUntil: at(90) },
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await login(application, user, application.version)).toMatchObject({
      updates_until: at(90),
    });
  });

  it('refuses a window out of range and an unknown start', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const url = `/api/applications/${application.id}/plans`;
    const zero = await owned('POST', url, { name: 'Zero', updatesForDays: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.body).toContain('Updates must be between 1 and 36500 days');
    const unknown = await owned('POST', url, { name: 'Odd', updatesFrom: 'purchase' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('updatesFrom must be redemption or activation');
    const created = planSchema.parse(
      (await owned('POST', url, { name: 'Yearly', updatesForDays: 365 })).json(),
    );
    const edited = await owned('PUT', `${url}/${created.id}`, {
      updatesForDays: null,
      updatesFrom: 'activation',
    });
    expect(planSchema.parse(edited.json())).toMatchObject({
      updatesForDays: null,
      updatesFrom: 'activation',
    });
  });
});
