import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appUserListSchema,
  appUserSchema,
  deviceListSchema,
  releasedDevicesSchema,
  auditEntryListSchema,
  problemSchema,
  subscriptionListSchema,
  type Application,
  type OwnerEvent,
  type CreatedApiToken,
} from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { createOwnerEventHub } from '../../events/owner-event-hub.ts';
import {
  createApiTokenViaApi,
  createApplicationViaApi,
  createPlanViaApi,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';

describe('management API: end users, idempotent writes and the audit trail', () => {
  let application: Application;
  let shop: CreatedApiToken;
  const clock = createManualClock(new Date('2026-06-01T09:00:00Z'));
  const ownerEvents = createOwnerEventHub();

  const testApp = startTestAppForSuite({ clock, ownerEvents });
  const owner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    application = await createApplicationViaApi(testApp.app, owner);
    shop = await createApiTokenViaApi(testApp.app, owner, {
      name: 'Sellix shop',
      scopes: ['users:read', 'users:write'],
      applicationIds: [application.id],
    });
  });

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    options: { payload?: unknown; token?: string; headers?: Record<string, string> } = {},
  ) =>
    testApp.app.inject({
      method,
      url: `/api/manage/v1${url}`,
      remoteAddress: '203.0.113.9',
      headers: { authorization: `Bearer ${options.token ?? shop.token}`, ...options.headers },
      ...(options.payload === undefined ? {} : { payload: options.payload as string }),
    });
  const usersUrl = (applicationId = application.id) => `/applications/${applicationId}/users`;

  const userCount = async (username: string) => {
    const [row] = await testApp.database.db
      .select({ value: count() })
      .from(appUsers)
      .where(and(eq(appUsers.applicationId, application.id), eq(appUsers.username, username)));
    return row!.value;
  };

  it('does what a shop does: create, read, extend, pause, grant a plan, list and delete', async () => {
    const created = await call('POST', usersUrl(), {
      payload: { username: 'buyer-1', password: 'correct horse', email: 'buyer@example.com' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = appUserSchema.parse(created.json());
    expect(user).toMatchObject({ username: 'buyer-1', email: 'buyer@example.com' });
    expect(created.body).not.toContain('correct horse');

    const read = await call('GET', `${usersUrl()}/${user.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(appUserSchema.parse(read.json())).toEqual(user);

    const extended = await call('PATCH', `${usersUrl()}/${user.id}`, {
      payload: { expiresAt: '2027-01-01T00:00:00Z' },
    });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(appUserSchema.parse(extended.json()).expiresAt).toBe('2027-01-01T00:00:00.000Z');

    const paused = await call('POST', `${usersUrl()}/${user.id}/pause`);
    expect(appUserSchema.parse(paused.json()).isPaused).toBe(true);
    const unpaused = await call('POST', `${usersUrl()}/${user.id}/unpause`);
    expect(appUserSchema.parse(unpaused.json()).isPaused).toBe(false);

    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Pro',
      durationDays: 30,
    });
    const granted = await call('POST', `${usersUrl()}/${user.id}/subscriptions`, {
      payload: { planId: plan.id },
    });
    expect(granted.statusCode, granted.body).toBe(201);
    expect(subscriptionListSchema.parse(granted.json()).map((held) => held.planId)).toEqual([
      plan.id,
    ]);
    const held = await call('GET', `${usersUrl()}/${user.id}/subscriptions`);
    expect(subscriptionListSchema.parse(held.json())).toEqual(granted.json());
    const subscriptionUrl = `${usersUrl()}/${user.id}/subscriptions/${subscriptionListSchema.parse(granted.json())[0]!.id}`;
    const prolonged = await call('PATCH', subscriptionUrl, {
      payload: { expiresAt: '2028-01-01T00:00:00Z' },
    });
    expect(prolonged.statusCode, prolonged.body).toBe(200);
    expect(subscriptionListSchema.parse(prolonged.json())[0]!.expiresAt).toBe(
      '2028-01-01T00:00:00.000Z',
    );
    const removed = await call('DELETE', subscriptionUrl);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(subscriptionListSchema.parse(removed.json())).toEqual([]);

    // The list is the console's, paged and searchable, with the rate-limit headers beside.
    const listed = await call('GET', `${usersUrl()}?search=buyer-&pageSize=10`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.headers['x-total-count']).toBe('1');
    expect(listed.headers['ratelimit-limit']).toBe('600');
    const consoleList = await testApp.app.inject({
      method: 'GET',
      url: `/api/applications/${application.id}/users?search=buyer-&pageSize=10`,
      headers: owner.headers,
    });
    expect(appUserListSchema.parse(listed.json())).toEqual(consoleList.json());

    const deleted = await call('DELETE', `${usersUrl()}/${user.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await call('GET', `${usersUrl()}/${user.id}`)).statusCode).toBe(404);
  });

  it('tells the owner’s open consoles about a token’s change, as about a console’s own', async () => {
    const events: OwnerEvent[] = [];
    const unsubscribe = ownerEvents.subscribe(owner.accountId, (event) => events.push(event));
    try {
      const created = await call('POST', usersUrl(), {
        payload: { username: 'live-1', password: 'correct horse' },
      });
      const user = appUserSchema.parse(created.json());
      await call('POST', `${usersUrl()}/${user.id}/pause`);
      expect(events).toEqual([
        {
          type: 'app_user',
          data: { applicationId: application.id, userId: user.id, change: 'created' },
        },
        {
          type: 'app_user',
          data: { applicationId: application.id, userId: user.id, change: 'updated' },
        },
      ]);
    } finally {
      unsubscribe();
    }
  });

  it('lists an end user’s devices and releases one', async () => {
    const created = await call('POST', usersUrl(), {
      payload: { username: 'two-machines', password: 'correct horse', hwid: 'HW-DESK' },
    });
    const user = appUserSchema.parse(created.json());
    const listed = await call('GET', `${usersUrl()}/${user.id}/devices`);
    expect(listed.statusCode, listed.body).toBe(200);
    const devices = deviceListSchema.parse(listed.json());
    expect(devices.map((device) => device.hwid)).toEqual(['HW-DESK']);
    const released = await call('DELETE', `${usersUrl()}/${user.id}/devices/${devices[0]!.id}`);
    expect(released.statusCode, released.body).toBe(200);
    expect(releasedDevicesSchema.parse(released.json()).released).toBe(1);
    const after = await call('GET', `${usersUrl()}/${user.id}/devices`);
    expect(deviceListSchema.parse(after.json())).toEqual([]);
  });

  it('refuses a body as a problem listing every refused field', async () => {
    const refused = await call('POST', usersUrl(), {
      payload: { username: 'u'.repeat(65), password: 'correct horse', email: 'nope' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    const problem = problemSchema.parse(refused.json());
    expect(problem.code).toBe('BAD_REQUEST');
    expect(problem.fields).toEqual([
      { field: 'username', message: 'Username must be at most 64 characters' },
      { field: 'email', message: 'Please enter a valid e-mail address' },
    ]);
    expect(problem.detail).toBe('username: Username must be at most 64 characters');
  });

  it('refuses a write without users:write, naming the scope', async () => {
    const reader = await createApiTokenViaApi(testApp.app, owner, { scopes: ['users:read'] });
    const response = await call('POST', usersUrl(), {
      token: reader.token,
      payload: { username: 'nope', password: 'correct horse' },
    });
    expect(response.statusCode).toBe(403);
    expect(problemSchema.parse(response.json())).toMatchObject({
      code: 'SCOPE_MISSING',
      scope: 'users:write',
    });
    expect(await userCount('nope')).toBe(0);
    expect((await call('GET', usersUrl(), { token: reader.token })).statusCode).toBe(200);
  });

  it('holds writes to the creator’s own permission for the same act in the console', async () => {
    const siteOwner = owner;
    const colleague = await signInOwner(testApp.app);
    const response = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${colleague.accountId}`,
      headers: siteOwner.headers,
      payload: { role: 'admin', permissions: ['manage_api_tokens'], isActive: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    // Reading one's own end users needs only a signed-in account, as in the console.
    const token = await createApiTokenViaApi(testApp.app, colleague, {
      scopes: ['users:read', 'users:write'],
    });
    const ownApplication = await testApp.app.inject({
      method: 'GET',
      url: '/api/applications',
      headers: colleague.headers,
    });
    expect(ownApplication.json()).toEqual([]);
    const refused = await call('POST', usersUrl(application.id), {
      token: token.token,
      payload: { username: 'x', password: 'correct horse' },
    });
    expect(refused.statusCode).toBe(403);
    expect(problemSchema.parse(refused.json())).toMatchObject({
      code: 'PERMISSION_MISSING',
      permission: 'manage_applications',
    });
  });

  it('keeps other applications out of reach: the same 404 as a missing one', async () => {
    const other = await createApplicationViaApi(testApp.app, owner);
    for (const url of [usersUrl(other.id), usersUrl(2_000_000_000)]) {
      const response = await call('GET', url);
      expect(response.statusCode, response.body).toBe(404);
      expect(problemSchema.parse(response.json()).detail).toBe('Application not found');
    }
    const write = await call('POST', usersUrl(other.id), {
      payload: { username: 'sneaky', password: 'correct horse' },
    });
    expect(write.statusCode).toBe(404);
  });

  it('answers a retried POST with the first answer, once, and a reused key with another body with 422', async () => {
    const key = { 'idempotency-key': 'order-1001' };
    const payload = { username: 'order-1001', password: 'correct horse' };
    const first = await call('POST', usersUrl(), { payload, headers: key });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await call('POST', usersUrl(), { payload, headers: key });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(await userCount('order-1001')).toBe(1);

    const otherBody = await call('POST', usersUrl(), {
      payload: { ...payload, username: 'order-1002' },
      headers: key,
    });
    expect(otherBody.statusCode).toBe(422);
    expect(problemSchema.parse(otherBody.json()).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await userCount('order-1002')).toBe(0);

    // After 24 hours the key is forgotten: the same request is new work (here a taken name).
    clock.advance(24 * 60 * 60_000 + 1);
    const later = await call('POST', usersUrl(), { payload, headers: key });
    expect(later.statusCode).toBe(409);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    clock.advance(-(24 * 60 * 60_000 + 1));
  });

  it('does the work once when two identical requests race', async () => {
    const payload = { username: 'racer', password: 'correct horse' };
    const headers = { 'idempotency-key': 'race-1' };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call('POST', usersUrl(), { payload, headers })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'])).toHaveLength(3);
    expect(await userCount('racer')).toBe(1);
  });

  it('repeats a refusal to a retry rather than trying again', async () => {
    const payload = { username: 'taken-name', password: 'correct horse' };
    expect((await call('POST', usersUrl(), { payload })).statusCode).toBe(201);
    const headers = { 'idempotency-key': 'taken-1' };
    const refused = await call('POST', usersUrl(), { payload, headers });
    expect(refused.statusCode).toBe(409);
    const replayed = await call('POST', usersUrl(), { payload, headers });
    expect(replayed.statusCode).toBe(409);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(replayed.body).toBe(refused.body);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const response = await call('POST', usersUrl(), {
      payload: { username: 'k', password: 'correct horse' },
      headers: { 'idempotency-key': 'has spaces in it' },
    });
    expect(response.statusCode).toBe(400);
    expect(problemSchema.parse(response.json()).detail).toBe(
      'Idempotency-Key must be 1 to 255 visible ASCII characters',
    );
  });

  it('writes every write to the audit trail with the token, the address and the fields, never a password', async () => {
    const created = await call('POST', usersUrl(), {
      payload: { username: 'audited', password: 'never-in-the-trail' },
    });
    const user = appUserSchema.parse(created.json());
    await call('POST', `${usersUrl()}/${user.id}/pause`);
    await call('GET', `${usersUrl()}/${user.id}`);
    const audit = await testApp.app.inject({
      method: 'GET',
      url: '/api/admin/audit?pageSize=200',
      headers: owner.headers,
    });
    expect(audit.body).not.toContain('never-in-the-trail');
    // Each verb writes its own entry, in the transaction of its write; reads write none.
    const entries = auditEntryListSchema
      .parse(audit.json())
      .filter((entry) => entry.ownerWrite?.target.id === user.id);
    expect(entries.map((entry) => entry.action).sort()).toEqual([
      'end_user_created',
      'end_user_paused',
    ]);
    for (const entry of entries) {
      expect(entry.actor.id).toBe(owner.accountId);
      expect(entry.actorToken).toEqual({ id: shop.id, name: 'Sellix shop', prefix: shop.prefix });
      expect(entry.ipAddress).toBe('203.0.113.9');
      expect(entry.ownerWrite!.application).toEqual({
        id: application.id,
        name: application.name,
      });
      expect(entry.ownerWrite!.target).toEqual({
        kind: 'end_user',
        id: user.id,
        label: 'audited',
      });
    }
    const creation = entries.find((entry) => entry.action === 'end_user_created')!;
    expect(creation.ownerWrite!.change).toMatchObject({
      username: 'audited',
      password: '[redacted]',
    });
  });
});
