import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  activityLogListSchema,
  appUserSchema,
  blacklistEntrySchema,
  generatedLicensesSchema,
  licenseListSchema,
  licenseSchema,
  planListSchema,
  problemSchema,
  webhookListSchema,
  webhookSchema,
  type Application,
  type CreatedApiToken,
  type Plan,
} from '@latchkey/contracts';
import { idempotencyKeys } from '../../db/schema/index.ts';
import {
  createApiTokenViaApi,
  createApplicationViaApi,
  createPlanViaApi,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

/**
 * The management API as a shop and a Discord bot use it: plain fetch over HTTP
 * against a listening server, a bearer token, JSON in and out.
 */
describe('management API: licences, the blacklist, webhooks and the activity log, over HTTP', () => {
  let baseUrl: string;
  let application: Application;
  let plan: Plan;
  let shop: CreatedApiToken;

  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    application = await createApplicationViaApi(testApp.app, owner);
    plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Monthly',
      durationDays: 30,
    });
    shop = await createApiTokenViaApi(testApp.app, owner, { name: 'Shop' });
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const address = testApp.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    baseUrl = `http://127.0.0.1:${address.port}`;
  });

  const manage = (
    path: string,
    init: {
      method?: string;
      body?: unknown;
      token?: string;
      headers?: Record<string, string>;
    } = {},
  ) =>
    fetch(`${baseUrl}/api/manage/v1${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.token ?? shop.token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const appPath = () => `/applications/${application.id}`;

  it('sells a key: generate it once, the buyer redeems it on register, extend the user, read the activity', async () => {
    const plans = planListSchema.parse(await (await manage(`${appPath()}/plans`)).json());
    expect(plans.map((offered) => offered.id)).toEqual([plan.id]);

    // The shop's checkout webhook fires twice for one order: one key, not two.
    const order = { method: 'POST', body: { planId: plan.id, count: 1, note: 'order 4711' } };
    const headers = { 'idempotency-key': 'order-4711' };
    const first = await manage(`${appPath()}/licenses`, { ...order, headers });
    expect(first.status).toBe(201);
    const generated = generatedLicensesSchema.parse(await first.json());
    const retried = await manage(`${appPath()}/licenses`, { ...order, headers });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(generatedLicensesSchema.parse(await retried.json())).toEqual(generated);
    const keys = licenseListSchema.parse(
      await (await manage(`${appPath()}/licenses?search=order%204711`)).json(),
    );
    expect(keys).toHaveLength(1);
    const key = generated.keys[0]!;
    // Kept for the retry, but sealed: the key's text is not in the database in the clear.
    const [kept] = await testApp.database.db
      .select({ body: idempotencyKeys.body })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, 'order-4711'));
    expect(kept!.body).not.toContain(key.key);

    // The buyer's program registers with the key (the client API, its own credential).
    const registered = await fetch(`${baseUrl}/api/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
      body: JSON.stringify({
        username: 'buyer-4711',
        password: 'correct horse',
        license_key: key.key,
      }),
    });
    const registration = (await registered.json()) as { success: boolean; user_id: string };
    expect(registration.success, JSON.stringify(registration)).toBe(true);

    const used = licenseSchema.parse(
      await (await manage(`${appPath()}/licenses/${keys[0]!.id}`)).json(),
    );
    expect(used).toMatchObject({ status: 'used', usedByUsername: 'buyer-4711' });

    // The Discord bot extends the buyer by a week past their plan.
    const extended = await manage(`${appPath()}/users/${registration.user_id}`, {
      method: 'PATCH',
      body: { expiresAt: '2030-01-08T00:00:00Z' },
    });
    expect(extended.status).toBe(200);
    expect(appUserSchema.parse(await extended.json()).expiresAt).toBe('2030-01-08T00:00:00.000Z');

    const activity = await manage(`/activity?applicationId=${application.id}&search=buyer-4711`);
    expect(activity.status).toBe(200);
    const rows = activityLogListSchema.parse(await activity.json());
    expect(rows.map((row) => row.event)).toContain('user_register');
  });

  it('bans and unbans a key, exports keys as CSV, and deletes one', async () => {
    const generated = generatedLicensesSchema.parse(
      await (
        await manage(`${appPath()}/licenses`, {
          method: 'POST',
          body: { planId: plan.id, count: 2 },
        })
      ).json(),
    );
    const [listed] = licenseListSchema.parse(
      await (await manage(`${appPath()}/licenses?status=unused&pageSize=1`)).json(),
    );
    const banned = await manage(`${appPath()}/licenses/${listed!.id}/ban`, {
      method: 'POST',
      body: { reason: 'Chargeback' },
    });
    expect(licenseSchema.parse(await banned.json())).toMatchObject({
      status: 'banned',
      bannedReason: 'Chargeback',
    });
    const unbanned = await manage(`${appPath()}/licenses/${listed!.id}/unban`, { method: 'POST' });
    expect(licenseSchema.parse(await unbanned.json()).status).toBe('unused');

    const csv = await manage(`${appPath()}/licenses/export.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await csv.text();
    for (const key of generated.keys) expect(text).toContain(key.key);

    const deleted = await manage(`${appPath()}/licenses/${listed!.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await manage(`${appPath()}/licenses/${listed!.id}`)).status).toBe(404);
  });

  it('keeps the blacklist and webhooks to tokens that reach every application', async () => {
    const entry = await manage('/blacklist', {
      method: 'POST',
      body: { type: 'hwid', value: 'HW-CHARGEBACK', reason: 'Chargeback' },
    });
    expect(entry.status).toBe(201);
    const created = blacklistEntrySchema.parse(await entry.json());
    expect((await manage('/blacklist?search=HW-CHARGEBACK')).status).toBe(200);

    const webhook = await manage('/webhooks', {
      method: 'POST',
      body: { url: 'https://93.184.215.14/shop-hook', events: ['user_register'] },
    });
    expect(webhook.status).toBe(201);
    const hook = webhookSchema.parse(await webhook.json());
    const updated = await manage(`/webhooks/${hook.id}`, {
      method: 'PUT',
      body: { events: ['user_register', 'user_login'] },
    });
    expect(webhookSchema.parse(await updated.json()).events).toEqual([
      'user_register',
      'user_login',
    ]);
    expect(webhookListSchema.parse(await (await manage('/webhooks')).json())).toHaveLength(1);

    const restricted = await createApiTokenViaApi(testApp.app, owner, {
      applicationIds: [application.id],
    });
    for (const path of ['/blacklist', '/webhooks']) {
      const refused = await manage(path, { token: restricted.token });
      expect(refused.status).toBe(403);
      expect(problemSchema.parse(await refused.json()).code).toBe('FORBIDDEN');
    }
    const unnamed = await manage('/activity', { token: restricted.token });
    expect(unnamed.status).toBe(400);
    const named = await manage(`/activity?applicationId=${application.id}`, {
      token: restricted.token,
    });
    expect(named.status).toBe(200);

    expect((await manage(`/webhooks/${hook.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await manage(`/blacklist/${created.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(webhookListSchema.parse(await (await manage('/webhooks')).json())).toEqual([]);
  });
});
