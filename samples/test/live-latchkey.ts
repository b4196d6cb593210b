import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  appFileSchema,
  appUserSchema,
  applicationSchema,
  applicationStatsSchema,
  applicationVariableSchema,
  deviceListSchema,
  generatedLicensesSchema,
  planSchema,
  portalOfflineActivationSchema,
  sampleSchema,
  seatLeaseListSchema,
  subscriptionListSchema,
  userMeterListSchema,
  userVariableListSchema,
  userVariableSchema,
  type AppFile,
  type AppUser,
  type ApplicationVariable,
  type Application,
  type CreatePlanRequest,
  type Device,
  type Plan,
  type PortalOfflineActivation,
  type SampleLanguage,
  type SeatLease,
  type Subscription,
  type UpdateAppUserRequest,
  type UpdateApplicationRequest,
  type UserMeter,
  type UserVariable,
} from '@latchkey/contracts';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { machineTrials, meterIncrements } from '../../apps/server/src/db/schema/index.ts';
import { createApplicationViaApi } from '../../apps/server/test/factories.ts';
import {
  createTestApp,
  signInOwner,
  type SignedInOwner,
  type TestApp,
} from '../../apps/server/test/test-app.ts';

/**
 * A real Latchkey listening on 127.0.0.1 (its own database, the shared test emulator), with
 * one signed-in owner and one application, for driving a compiled client sample against it.
 * Everything goes through the owner API over real HTTP, as the console would.
 */
export interface LiveLatchkey {
  baseUrl: string;
  testApp: TestApp;
  owner: SignedInOwner;
  application: Application;
  /** The sample exactly as `GET /api/applications/:id/samples/:language` renders it. */
  renderSample(language: SampleLanguage): Promise<string>;
  createEndUser(input?: {
    username?: string;
    password?: string;
    hwid?: string;
  }): Promise<AppUser & { password: string }>;
  updateApplication(changes: UpdateApplicationRequest): Promise<Application>;
  pauseEndUser(userId: string): Promise<void>;
  /** Edits an end user as the console's user dialog does (an expiry, a password). */
  updateEndUser(userId: string, changes: UpdateAppUserRequest): Promise<AppUser>;
  /** An end user by exact username, as the owner's user list finds them (none: undefined). */
  findEndUser(username: string): Promise<AppUser | undefined>;
  /** A plan of the application, through the owner API. */
  createPlan(plan: CreatePlanRequest): Promise<Plan>;
  /** Fresh licence keys of a plan, in full, as the owner's generate answers them. */
  generateLicenseKeys(planId: string, count?: number): Promise<{ id: string; key: string }[]>;
  /** Redeems a key onto an account through the client API, as another program would. */
  redeemLicenseKey(user: { username: string; password: string }, key: string): Promise<void>;
  /** The end user's subscriptions as the console shows them. */
  subscriptionsOf(userId: string): Promise<Subscription[]>;
  /** The application's live sessions, as the console shows them. */
  activeSessionCount(): Promise<number>;
  /** The end user's devices, oldest binding first, as the console shows them. */
  devicesOf(userId: string): Promise<Device[]>;
  /** A login through the client API from another program on another machine: its code. */
  loginFrom(user: { username: string; password: string }, hwid: string): Promise<string>;
  /** An application variable, as the console's Variables tab creates one. */
  createVariable(input: {
    name: string;
    value: string;
    requiresSession?: boolean;
  }): Promise<ApplicationVariable>;
  /** Creates or replaces one of an end user's variables, as the user dialog does. */
  setUserVariable(
    userId: string,
    name: string,
    input: { value: string; readOnly?: boolean },
  ): Promise<UserVariable>;
  /** The end user's variables by name, as the user dialog shows them. */
  userVariablesOf(userId: string): Promise<UserVariable[]>;
  /** Uploads a file of the application as the console does: its bytes as the body. */
  uploadFile(input: {
    name: string;
    version: string;
    platform?: string;
    bytes: Buffer;
    requiresSession?: boolean;
  }): Promise<AppFile>;
  /** Marks a file as the current release (VERSION_MISMATCH then offers it), or clears it. */
  setCurrentRelease(fileId: string | null): Promise<Application>;
  /**
   * Buy once, a year of updates, and the year is over: grants the end user a plan with an
   * updates window, ends that window when `entitled` (a public release) was published, then
   * publishes the application's own version as its current release. A login of that version,
   * the program's, then answers UPDATES_EXPIRED and offers `entitled`. Answers the new release;
   * `setCurrentRelease` puts the previous one back.
   */
  endUpdatesWindowAt(userId: string, entitled: AppFile): Promise<AppFile>;
  /**
   * So many uses of a feature a period: grants the end user a lifetime plan with this one usage
   * meter, as the console's plan form and user dialog do. Answers the plan.
   */
  /**
   * Grants the end user a plan whose `exports` meter allows two uses a month, refusing past
   * them; answers where the meter stands.
   */
  grantTwoUseMeter(userId: string): Promise<UserMeter>;
  /** That both uses were counted, each once, with an idempotency key of its own. */
  expectTwoUsesCountedOnceEach(userId: string): Promise<void>;
  /** Where the end user's usage meters stand, as the console's user dialog shows them. */
  metersOf(userId: string): Promise<UserMeter[]>;
  /**
   * Offers each machine one trial of `days` days granting `entitlements`, as the console's Trial
   * settings do; null offers none (machines keep the trials they have). Answers the application.
   */
  offerTrial(days: number | null, entitlements?: string[]): Promise<Application>;
  /**
   * That the account named `username` is a machine's trial, the only one that machine has had,
   * ending `days` days after it started, as the owner's user list shows it. Answers the account.
   */
  expectTrialAccount(username: string, days: number): Promise<AppUser>;
  /**
   * Pastes an activation request into the application's end-user portal (which must be on) from
   * another computer, not signed in, as its "Activate a computer offline" card does: the licence
   * is for the holder of the key the request carries. Answers the portal's answer.
   */
  activateOffline(request: string): Promise<PortalOfflineActivation>;
  /**
   * Floating seats: grants the end user a lifetime plan of `seats` computers at once (15-minute
   * leases), whose seats may be borrowed for up to `maxBorrowDays`, as the console's plan form
   * and user dialog do. Answers the plan.
   */
  grantFloatingPlan(userId: string, input: { seats: number; maxBorrowDays: number }): Promise<Plan>;
  /** The end user's floating seats in use, oldest first, as the console's seat list shows them. */
  seatsOf(userId: string): Promise<SeatLease[]>;
  /** Frees a seat in use (its login's session ends), as the console's seat list does. */
  freeSeat(leaseId: string): Promise<void>;
  close(): Promise<void>;
}

export async function startLiveLatchkey(): Promise<LiveLatchkey> {
  const testApp = await createTestApp();
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = testApp.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const owner = await signInOwner(testApp.app);
  let application = await createApplicationViaApi(testApp.app, owner, {
    name: 'Sample under test',
  });

  const ownerCall = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...owner.headers,
        origin: baseUrl,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as unknown;
  };

  const uploadFile = async (input: {
    name: string;
    version: string;
    platform?: string;
    bytes: Buffer;
    requiresSession?: boolean;
  }) => {
    const query = new URLSearchParams({ name: input.name, version: input.version });
    if (input.platform !== undefined) query.set('platform', input.platform);
    if (input.requiresSession !== undefined) {
      query.set('requiresSession', String(input.requiresSession));
    }
    const path = `/api/applications/${application.id}/files?${query}`;
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        ...owner.headers,
        origin: baseUrl,
        'content-type': 'application/octet-stream',
      },
      body: input.bytes,
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return appFileSchema.parse(JSON.parse(text));
  };
  const setCurrentRelease = async (fileId: string | null) => {
    application = applicationSchema.parse(
      await ownerCall('PUT', `/api/applications/${application.id}`, {
        currentReleaseFileId: fileId,
      }),
    );
    return application;
  };

  let userCount = 0;
  let updatesPlanCount = 0;
  let meteredPlanCount = 0;
  let floatingPlanCount = 0;
  const live: LiveLatchkey = {
    baseUrl,
    testApp,
    owner,
    get application() {
      return application;
    },
    async renderSample(language) {
      const sample = sampleSchema.parse(
        await ownerCall('GET', `/api/applications/${application.id}/samples/${language}`),
      );
      return sample.code;
    },
    async createEndUser(input = {}) {
      userCount += 1;
      const password = input.password ?? 'correct horse battery staple';
      const user = appUserSchema.parse(
        await ownerCall('POST', `/api/applications/${application.id}/users`, {
          username: input.username ?? `sample_user_${userCount}`,
          password,
          ...(input.hwid === undefined ? {} : { hwid: input.hwid }),
        }),
      );
      return { ...user, password };
    },
    async updateApplication(changes) {
      application = applicationSchema.parse(
        await ownerCall('PUT', `/api/applications/${application.id}`, changes),
      );
      return application;
    },
    async pauseEndUser(userId) {
      await ownerCall('POST', `/api/applications/${application.id}/users/${userId}/pause`);
    },
    async updateEndUser(userId, changes) {
      return appUserSchema.parse(
        await ownerCall('PUT', `/api/applications/${application.id}/users/${userId}`, changes),
      );
    },
    async findEndUser(username) {
      const users = appUserSchema
        .array()
        .parse(
          await ownerCall(
            'GET',
            `/api/applications/${application.id}/users?search=${encodeURIComponent(username)}`,
          ),
        );
      return users.find((user) => user.username === username);
    },
    async createPlan(plan) {
      return planSchema.parse(
        await ownerCall('POST', `/api/applications/${application.id}/plans`, plan),
      );
    },
    async generateLicenseKeys(planId, count = 1) {
      const generated = generatedLicensesSchema.parse(
        await ownerCall('POST', `/api/applications/${application.id}/licenses`, { planId, count }),
      );
      return generated.keys;
    },
    async redeemLicenseKey(user, key) {
      const response = await fetch(`${baseUrl}/api/v1/license/redeem`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
        body: JSON.stringify({
          username: user.username,
          password: user.password,
          license_key: key,
        }),
      });
      const answer = (await response.json()) as { code?: string };
      if (answer.code !== 'OK') throw new Error(`redeem: ${JSON.stringify(answer)}`);
    },
    async subscriptionsOf(userId) {
      return subscriptionListSchema.parse(
        await ownerCall('GET', `/api/applications/${application.id}/users/${userId}/subscriptions`),
      );
    },
    async activeSessionCount() {
      const stats = applicationStatsSchema.parse(
        await ownerCall('GET', `/api/applications/${application.id}/stats`),
      );
      return stats.activeSessions;
    },
    async devicesOf(userId) {
      return deviceListSchema.parse(
        await ownerCall('GET', `/api/applications/${application.id}/users/${userId}/devices`),
      );
    },
    async loginFrom(user, hwid) {
      const response = await fetch(`${baseUrl}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
        body: JSON.stringify({
          username: user.username,
          password: user.password,
          version: application.version,
          hwid,
        }),
      });
      return ((await response.json()) as { code: string }).code;
    },
    async createVariable(input) {
      return applicationVariableSchema.parse(
        await ownerCall('POST', `/api/applications/${application.id}/variables`, input),
      );
    },
    async setUserVariable(userId, name, input) {
      return userVariableSchema.parse(
        await ownerCall(
          'PUT',
          `/api/applications/${application.id}/users/${userId}/variables/${encodeURIComponent(name)}`,
          input,
        ),
      );
    },
    async userVariablesOf(userId) {
      return userVariableListSchema.parse(
        await ownerCall('GET', `/api/applications/${application.id}/users/${userId}/variables`),
      );
    },
    uploadFile,
    setCurrentRelease,
    async endUpdatesWindowAt(userId, entitled) {
      updatesPlanCount += 1;
      const plan = planSchema.parse(
        await ownerCall('POST', `/api/applications/${application.id}/plans`, {
          name: `A year of updates ${updatesPlanCount}`,
          durationDays: null,
          updatesForDays: 365,
        }),
      );
      const userPath = `/api/applications/${application.id}/users/${userId}`;
      const held = subscriptionListSchema.parse(
        await ownerCall('POST', `${userPath}/subscriptions`, { planId: plan.id }),
      );
      const subscription = held.find((each) => each.planId === plan.id)!;
      // The window holds what was published by its end, inclusive: `entitled` and nothing later.
      await ownerCall('PUT', `${userPath}/subscriptions/${subscription.id}`, {
        expiresAt: null,
        updatesUntil: entitled.createdAt,
      });
      const current = await uploadFile({
        name: `client-${application.version}.bin`,
        version: application.version,
        bytes: randomBytes(1_000),
        requiresSession: false,
      });
      await setCurrentRelease(current.id);
      return current;
    },
    async grantTwoUseMeter(userId) {
      meteredPlanCount += 1;
      const plan = planSchema.parse(
        await ownerCall('POST', `/api/applications/${application.id}/plans`, {
          name: `Metered exports ${meteredPlanCount}`,
          durationDays: null,
          meters: [{ name: 'exports', allowance: 2, resetEvery: 'month', overage: 'refuse' }],
        }),
      );
      await ownerCall('POST', `/api/applications/${application.id}/users/${userId}/subscriptions`, {
        planId: plan.id,
      });
      const [meter] = await live.metersOf(userId);
      if (!meter) throw new Error('the granted plan has no meter');
      return meter;
    },
    async expectTwoUsesCountedOnceEach(userId) {
      expect(await live.metersOf(userId)).toMatchObject([{ name: 'exports', used: 2 }]);
      const increments = await testApp.database.db
        .select()
        .from(meterIncrements)
        .where(eq(meterIncrements.appUserId, userId));
      expect(increments.map((increment) => increment.amount)).toEqual([1, 1]);
      expect(new Set(increments.map((increment) => increment.idempotencyKey)).size).toBe(2);
    },
    async metersOf(userId) {
      return userMeterListSchema.parse(
        await ownerCall('GET', `/api/applications/${application.id}/users/${userId}/meters`),
      );
    },
    offerTrial(days, entitlements = []) {
      return live.updateApplication({ trialDays: days, trialEntitlements: entitlements });
    },
    async expectTrialAccount(username, days) {
      const account = await live.findEndUser(username);
      if (!account) throw new Error(`no account named ${username}`);
      const trials = await testApp.database.db
        .select()
        .from(machineTrials)
        .where(eq(machineTrials.appUserId, account.id));
      expect(trials).toHaveLength(1);
      const [trial] = trials;
      expect(trial!.endsAt.getTime() - trial!.startedAt.getTime()).toBe(days * 86_400_000);
      expect(Date.parse(account.expiresAt!)).toBe(trial!.endsAt.getTime());
      return account;
    },
    async activateOffline(request) {
      const path = `/api/portal/${application.portalPublicId}/offline-activation`;
      // The portal page is served by this server: its calls carry the server's own origin.
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl },
        body: JSON.stringify({ request }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
      return portalOfflineActivationSchema.parse(JSON.parse(text));
    },
    async grantFloatingPlan(userId, { seats, maxBorrowDays }) {
      floatingPlanCount += 1;
      const plan = planSchema.parse(
        await ownerCall('POST', `/api/applications/${application.id}/plans`, {
          name: `Floating seats ${floatingPlanCount}`,
          floating: true,
          seats,
          leaseMinutes: 15,
          maxBorrowDays,
        }),
      );
      await ownerCall('POST', `/api/applications/${application.id}/users/${userId}/subscriptions`, {
        planId: plan.id,
      });
      return plan;
    },
    async seatsOf(userId) {
      const seats = seatLeaseListSchema.parse(
        await ownerCall('GET', `/api/applications/${application.id}/seats`),
      );
      return seats.filter((seat) => seat.userId === userId);
    },
    async freeSeat(leaseId) {
      await ownerCall('DELETE', `/api/applications/${application.id}/seats/${leaseId}`);
    },
    close: () => testApp.close(),
  };
  return live;
}

/**
 * Sets a named constant of a rendered sample (`NAME = value`, with or without a type and a
 * closing semicolon, in any of the four languages), so a test can run the 30-second
 * heartbeat every second. Fails loudly when the constant is not there.
 */
export function replaceConstant(code: string, name: string, value: string | number): string {
  const pattern = new RegExp(`(\\b${name}\\s*=\\s*)[^;\\n]+`);
  if (!pattern.test(code)) throw new Error(`constant ${name} not found in the sample`);
  return code.replace(pattern, `$1${value}`);
}
