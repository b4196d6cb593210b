import { createHash, type KeyObject } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import {
  appFileSchema,
  appUserSchema,
  applicationSchema,
  applicationVariableSchema,
  generatedLicensesSchema,
  planSchema,
  portalOfflineActivationSchema,
  subscriptionListSchema,
  userVariableSchema,
  type Application,
  type CreatePlanRequest,
  type UpdateApplicationRequest,
} from '@latchkey/contracts';
import { applications } from '../../apps/server/src/db/schema/index.ts';
import { decryptSigningKey } from '../../apps/server/src/lib/signing-keys.ts';
import { createApplicationViaApi } from '../../apps/server/test/factories.ts';
import type { LiveLatchkey } from '../../samples/test/live-latchkey.ts';

export const DEFAULT_PASSWORD = 'correct horse battery staple';

/**
 * A fresh application of the live server's owner for one conformance scenario, so no scenario
 * sees another's users, settings or throttles, and the owner's actions on it, each over real
 * HTTP as the console makes them.
 */
export async function createScenarioApplication(
  live: LiveLatchkey,
  name: string,
  settings: UpdateApplicationRequest = {},
) {
  const created = await createApplicationViaApi(live.testApp.app, live.owner, {
    name: name.slice(0, 60),
  });
  const ownerCall = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${live.baseUrl}${path}`, {
      method,
      headers: {
        ...live.owner.headers,
        origin: live.baseUrl,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as unknown;
  };
  const base = `/api/applications/${created.id}`;
  const application: Application =
    Object.keys(settings).length === 0
      ? created
      : applicationSchema.parse(await ownerCall('PUT', base, settings));
  let userCount = 0;

  return {
    application,
    /** The application's private signing key: what a man in the middle does not have. */
    async signingKey(): Promise<KeyObject> {
      const [row] = await live.testApp.database.db
        .select()
        .from(applications)
        .where(eq(applications.id, application.id));
      if (!row) throw new Error(`application ${application.id} not found`);
      return decryptSigningKey(row, live.testApp.config.serverSecret);
    },
    async createUser(input: { username?: string; password?: string; expiresAt?: string } = {}) {
      userCount += 1;
      const password = input.password ?? DEFAULT_PASSWORD;
      const user = appUserSchema.parse(
        await ownerCall('POST', `${base}/users`, {
          username: input.username ?? `conformance_user_${userCount}`,
          password,
          ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
        }),
      );
      return { id: user.id, username: user.username, password };
    },
    async pauseUser(input: { userId: string }) {
      await ownerCall('POST', `${base}/users/${input.userId}/pause`);
      return {};
    },
    /** Sets the user's account expiry, as the vendor's edit of the user does. */
    async setUserExpiry(input: { userId: string; expiresAt: string | null }) {
      appUserSchema.parse(
        await ownerCall('PUT', `${base}/users/${input.userId}`, { expiresAt: input.expiresAt }),
      );
      return {};
    },
    async deleteUser(input: { userId: string }) {
      await ownerCall('DELETE', `${base}/users/${input.userId}`);
      return {};
    },
    /**
     * Offers a trial per machine (`trialDays`, null for none, and what it grants), as the
     * application's trial settings in the console do.
     */
    async offerTrial(input: { trialDays: number | null; trialEntitlements?: string[] }) {
      const offered = applicationSchema.parse(
        await ownerCall('PUT', base, {
          trialDays: input.trialDays,
          trialEntitlements: input.trialEntitlements ?? [],
        } satisfies UpdateApplicationRequest),
      );
      return { trialDays: offered.trialDays, trialEntitlements: offered.trialEntitlements };
    },
    /** A plan, as the console creates one; `floating` with its `seats` (and lease and borrow). */
    async createPlan(input: {
      name: string;
      durationDays?: number | null;
      entitlements?: string[];
      updatesForDays?: number | null;
      meters?: CreatePlanRequest['meters'];
      floating?: boolean;
      seats?: number | null;
      leaseMinutes?: number;
      maxBorrowDays?: number;
    }) {
      const plan = planSchema.parse(await ownerCall('POST', `${base}/plans`, input));
      return { id: plan.id };
    },
    async createLicenseKey(input: { planId: string }) {
      const generated = generatedLicensesSchema.parse(
        await ownerCall('POST', `${base}/licenses`, { planId: input.planId, count: 1 }),
      );
      return { key: generated.keys[0]!.key };
    },
    async createVariable(input: { name: string; value: string; requiresSession?: boolean }) {
      const variable = applicationVariableSchema.parse(
        await ownerCall('POST', `${base}/variables`, input),
      );
      return { name: variable.name };
    },
    async setUserVariable(input: {
      userId: string;
      name: string;
      value: string;
      readOnly?: boolean;
    }) {
      const path = `${base}/users/${input.userId}/variables/${encodeURIComponent(input.name)}`;
      userVariableSchema.parse(
        await ownerCall('PUT', path, { value: input.value, readOnly: input.readOnly ?? false }),
      );
      return {};
    },
    async uploadFile(input: {
      name: string;
      version: string;
      text: string;
      requiresSession?: boolean;
    }) {
      const bytes = Buffer.from(input.text, 'utf8');
      const query = new URLSearchParams({
        name: input.name,
        version: input.version,
        requiresSession: String(input.requiresSession ?? true),
      });
      const response = await fetch(`${live.baseUrl}${base}/files?${query}`, {
        method: 'POST',
        headers: {
          ...live.owner.headers,
          origin: live.baseUrl,
          'content-type': 'application/octet-stream',
        },
        body: bytes,
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`upload: ${response.status} ${text}`);
      const file = appFileSchema.parse(JSON.parse(text));
      return {
        id: file.id,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
    },
    async setCurrentRelease(input: { fileId: string }) {
      await ownerCall('PUT', base, { currentReleaseFileId: input.fileId });
      return {};
    },
    /** Gives the user a subscription of the plan, as the vendor's grant in the console does. */
    async grantPlan(input: { userId: string; planId: string }) {
      subscriptionListSchema.parse(
        await ownerCall('POST', `${base}/users/${input.userId}/subscriptions`, {
          planId: input.planId,
        }),
      );
      return {};
    },
    /**
     * Ends the updates window of each of the user's subscriptions now, as the vendor's edit of
     * a subscription does: the files uploaded before are within it, the ones uploaded after
     * are past it. Answers the window's end, as login then answers it.
     */
    async endUpdatesWindow(input: { userId: string }) {
      const path = `${base}/users/${input.userId}/subscriptions`;
      const held = subscriptionListSchema.parse(await ownerCall('GET', path));
      if (held.length === 0) throw new Error('endUpdatesWindow: the user holds no subscription');
      // Upload times are kept to the microsecond and the window's end to the millisecond: a
      // moment apart on either side, so no upload shares the millisecond the window ends in.
      await delay(3);
      const updatesUntil = new Date().toISOString();
      for (const subscription of held) {
        await ownerCall('PUT', `${path}/${subscription.id}`, {
          expiresAt: subscription.expiresAt,
          updatesUntil,
        });
      }
      await delay(3);
      return { updatesUntil };
    },
    /**
     * An air-gapped machine's activation, as its user makes it in the application's portal on
     * another computer (not signed in: the request's licence key decides who): the request text
     * in, the portal's offline licence out. Needs the application's `portalEnabled`.
     */
    async activateOffline(input: { request: string }) {
      const response = await fetch(
        `${live.baseUrl}/api/portal/${application.portalPublicId}/offline-activation`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: live.baseUrl },
          body: JSON.stringify({ request: input.request }),
        },
      );
      const text = await response.text();
      if (!response.ok) throw new Error(`offline activation: ${response.status} ${text}`);
      return portalOfflineActivationSchema.parse(JSON.parse(text));
    },
    /** A login from another program on another machine, straight over HTTP (not the SDK). */
    async loginFromAnotherMachine(input: { username: string; password: string; hwid: string }) {
      const response = await fetch(`${live.baseUrl}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
        body: JSON.stringify({ ...input, version: application.version }),
      });
      const answer = (await response.json()) as { code?: string };
      if (answer.code !== 'OK')
        throw new Error(`login from another machine: ${JSON.stringify(answer)}`);
      return {};
    },
  };
}

export type ScenarioApplication = Awaited<ReturnType<typeof createScenarioApplication>>;
