import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenScopes, problemSchema } from '@latchkey/contracts';
import { seatLeases } from '../../db/schema/index.ts';
import { routeContracts } from '../../route-table.ts';
import {
  createApiTokenViaApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  createWebhookViaApi,
  generateLicensesViaApi,
  grantSubscriptionViaApi,
} from '../../../test/factories.ts';
import {
  createTestApp,
  signInOwner,
  type SignedInOwner,
  type TestApp,
} from '../../../test/test-app.ts';

/** The ids a management route's path may name, of one owner's data. */
interface Fixture {
  applicationId: number;
  userId: string;
  deviceId: string;
  licenseId: string;
  subscriptionId: string;
  entryId: number;
  webhookId: number;
  /** A previewed KeyAuth import of the application. */
  importId: string;
  /** A floating seat the user holds. */
  leaseId: string;
}

const managementRoutes = Object.entries(routeContracts)
  .filter(([, contract]) => contract.caller === 'manage')
  .map(([key, contract]) => {
    const [method, url] = key.split(' ') as [string, string];
    return { key, method, url, scope: contract.management!.scope };
  });
const validBodies: Record<string, unknown> = {
  'POST /api/manage/v1/applications/:id/users': {
    username: 'intruder',
    password: 'correct horse battery',
  },
  'POST /api/manage/v1/applications/:id/users/:userId/subscriptions': { planId: randomUUID() },
  'POST /api/manage/v1/applications/:id/licenses': { planId: randomUUID(), count: 1 },
  'POST /api/manage/v1/applications/:id/licenses/:licenseId/ban': { reason: 'intruder' },
  'PATCH /api/manage/v1/applications/:id/users/:userId': { email: 'intruder@example.com' },
  'PUT /api/manage/v1/webhooks/:id': { isActive: false },
  'PATCH /api/manage/v1/applications/:id/users/:userId/subscriptions/:subscriptionId': {
    expiresAt: null,
  },
};
/** The KeyAuth upload: its query and a raw file body, so it reaches the ownership check. */
const uploads: Record<string, { query: string; file: string }> = {
  'POST /api/manage/v1/applications/:id/imports': {
    query: '?source=keyauth&kind=keys',
    file: 'INTRUDER-KEY-0001\n',
  },
};
const withParams = managementRoutes.filter((route) => route.url.includes(':'));

/**
 * Every management route, walked from the route table rather than listed by hand:
 * refused without its scope (naming it), and, replayed with another owner's ids by a token
 * holding every scope, a 404 exactly like ids that do not exist (no existence leak).
 */
describe('every management route is closed to the wrong token', () => {
  let testApp: TestApp;
  let victim: SignedInOwner;
  let attacker: SignedInOwner;
  let victimData: Fixture;
  let attackerToken: string;

  const fixtureOf = async (owner: SignedInOwner): Promise<Fixture> => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      hwid: 'HW-VICTIM',
    });
    const devices = await testApp.app.inject({
      method: 'GET',
      url: `/api/applications/${application.id}/users/${user.id}/devices`,
      headers: owner.headers,
    });
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Plan',
      durationDays: 30,
    });
    await generateLicensesViaApi(testApp.app, owner, application.id, { planId: plan.id });
    const [subscription] = await grantSubscriptionViaApi(
      testApp.app,
      owner,
      { applicationId: application.id, userId: user.id },
      { planId: plan.id },
    );
    const licenses = await testApp.app.inject({
      method: 'GET',
      url: `/api/applications/${application.id}/licenses`,
      headers: owner.headers,
    });
    const entry = await testApp.app.inject({
      method: 'POST',
      url: '/api/blacklist',
      headers: owner.headers,
      payload: { type: 'hwid', value: `HW-${randomUUID()}` },
    });
    const webhook = await createWebhookViaApi(testApp.app, owner);
    const previewed = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/imports?source=keyauth&kind=keys`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('VICTIM-KEY-0001\n'),
    });
    const [lease] = await testApp.database.db
      .insert(seatLeases)
      .values({
        applicationId: application.id,
        appUserId: user.id,
        tokenHash: `fixture-${randomUUID()}`,
        hwid: null,
        leaseMinutes: 60,
        expiresAt: new Date(Date.now() + 86_400_000),
        createdAt: new Date(),
      })
      .returning({ id: seatLeases.id });
    return {
      leaseId: lease!.id,
      importId: (previewed.json() as { id: string }).id,
      applicationId: application.id,
      userId: user.id,
      deviceId: (devices.json() as { id: string }[])[0]!.id,
      licenseId: (licenses.json() as { id: string }[])[0]!.id,
      subscriptionId: subscription!.id,
      entryId: (entry.json() as { id: number }).id,
      webhookId: webhook.id,
    };
  };

  const fill = (url: string, fixture: Fixture) =>
    url
      .replace(':userId', fixture.userId)
      .replace(':deviceId', fixture.deviceId)
      .replace(':licenseId', fixture.licenseId)
      .replace(':subscriptionId', fixture.subscriptionId)
      .replace(':entryId', String(fixture.entryId))
      .replace(':importId', fixture.importId)
      .replace(':leaseId', fixture.leaseId)
      .replace(
        ':id',
        String(url.includes('/webhooks/') ? fixture.webhookId : fixture.applicationId),
      );

  const send = (route: { method: string; url: string }, token: string, fixture: Fixture) => {
    const upload = uploads[`${route.method} ${route.url}`];
    if (upload) {
      return testApp.app.inject({
        method: 'POST',
        url: fill(route.url, fixture) + upload.query,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        payload: Buffer.from(upload.file),
      });
    }
    return testApp.app.inject({
      method: route.method as 'GET',
      url: fill(route.url, fixture),
      headers: { authorization: `Bearer ${token}` },
      // Bodies valid enough to reach the ownership checks; the scope check comes first anyway.
      ...(route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH'
        ? { payload: validBodies[`${route.method} ${route.url}`] ?? {} }
        : {}),
    });
  };

  beforeAll(async () => {
    testApp = await createTestApp({ env: { MANAGE_API_RATE_LIMIT_PER_MINUTE: '100000' } });
    victim = await signInOwner(testApp.app);
    attacker = await signInOwner(testApp.app);
    const promoted = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${attacker.accountId}`,
      headers: victim.headers,
      payload: {
        role: 'admin',
        permissions: ['manage_applications', 'delete_applications', 'manage_api_tokens'],
        isActive: true,
      },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    victimData = await fixtureOf(victim);
    attackerToken = (await createApiTokenViaApi(testApp.app, attacker)).token;
  });
  afterAll(() => testApp.close());

  it('walks every management route', () => {
    expect(managementRoutes.length).toBeGreaterThanOrEqual(30);
  });

  it.each(managementRoutes)('$key: refused without $scope, naming it', async (route) => {
    const { token } = await createApiTokenViaApi(testApp.app, victim, {
      scopes: apiTokenScopes.filter((scope) => scope !== route.scope),
    });
    const response = await send(route, token, victimData);
    expect(response.statusCode, response.body).toBe(403);
    expect(problemSchema.parse(response.json())).toMatchObject({
      code: 'SCOPE_MISSING',
      scope: route.scope,
    });
  });

  it.each(withParams)(
    "$key: another owner's ids answer as ids that do not exist",
    async (route) => {
      const response = await send(route, attackerToken, victimData);
      expect(response.statusCode, response.body).toBe(404);
      const nonexistent = await send(route, attackerToken, {
        applicationId: 2_000_000_000,
        userId: randomUUID(),
        deviceId: randomUUID(),
        licenseId: randomUUID(),
        subscriptionId: randomUUID(),
        entryId: 2_000_000_000,
        webhookId: 2_000_000_000,
        importId: randomUUID(),
        leaseId: randomUUID(),
      });
      expect(nonexistent.statusCode).toBe(404);
      expect(nonexistent.json()).toEqual(response.json());
    },
  );

  it("left the victim's data as it was", async () => {
    for (const url of [
      `/api/applications/${victimData.applicationId}/users`,
      `/api/applications/${victimData.applicationId}/licenses`,
      '/api/blacklist',
      '/api/webhooks',
      `/api/applications/${victimData.applicationId}/users/${victimData.userId}/devices`,
      `/api/applications/${victimData.applicationId}/users/${victimData.userId}/subscriptions`,
    ]) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: victim.headers });
      expect((response.json() as unknown[]).length, url).toBe(1);
    }
  });
});
