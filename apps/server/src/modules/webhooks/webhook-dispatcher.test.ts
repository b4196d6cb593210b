import { and, asc, eq } from 'drizzle-orm';
import pino from 'pino';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookEventPayloadSchema, type WebhookEventPayload } from '@latchkey/contracts';
import {
  activityLogs,
  appUserSessions,
  ownerAccounts,
  webhookDeliveries,
  webhooks,
} from '../../db/schema/index.ts';
import type { DatabaseConnection } from '../../db/client.ts';
import { systemClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertApplication,
  insertClientApplication,
} from '../../../test/factories.ts';
import { createTestApp, signInOwner, type TestApp } from '../../../test/test-app.ts';
import { retryWebhookDelivery, WEBHOOK_DELIVERY_IN_FLIGHT } from './retry-webhook-delivery.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import {
  insertTestWebhook,
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../../../test/webhook-test-receiver.ts';
import {
  WEBHOOK_DISABLED_ERROR,
  WEBHOOK_FAILING_REASON,
  WEBHOOK_GONE_REASON,
  createWebhookDispatcher,
  type WebhookDispatcher,
} from './webhook-dispatcher.ts';

const PASSWORD = 'correct horse battery';
const waitLong = { timeout: 10_000, interval: 20 };

describe('webhook delivery, end to end over a real socket', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let ownerAccountId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    testApp = await createTestApp({
      isWebhookDispatcherEnabled: true,
      env: { WEBHOOK_RETRY_DELAYS_SECONDS: '1,1', WEBHOOK_POLL_INTERVAL_MS: '50' },
    });
    const [account] = await testApp.database.db
      .insert(ownerAccounts)
      .values({ firebaseUid: `webhooks-${Date.now()}`, email: 'webhooks@example.com' })
      .returning();
    ownerAccountId = account!.id;
  }, 60_000);
  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const db = () => testApp.database.db;
  const newApplication = (name = 'Hooked App') =>
    insertClientApplication(testApp, ownerAccountId, { name });
  const webhook = (input: Omit<Parameters<typeof insertTestWebhook>[2], 'ownerAccountId'>) =>
    insertTestWebhook(db(), testApp.config.serverSecret, { ownerAccountId, ...input });
  const logIn = (apiKey: string, username: string, password = PASSWORD, hwid = 'HW-1') =>
    callClientApi(testApp.app, 'login', {
      apiKey,
      body: { username, password, version: '1.0.0', hwid },
    });
  const deliveriesOf = (webhookId: number) =>
    db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId))
      .orderBy(asc(webhookDeliveries.createdAt));
  const payloadOf = (request: ReceivedWebhook): WebhookEventPayload =>
    webhookEventPayloadSchema.parse(JSON.parse(request.body));

  it('sends a signed Standard Webhooks JSON event that the standardwebhooks package verifies', async () => {
    const application = await newApplication('Signed App');
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    const hook = await webhook({ url: receiver.url('/signed'), events: ['user_login'] });

    expect((await logIn(application.apiKey, user.username)).json()).toMatchObject({
      success: true,
    });
    await vi.waitFor(() => expect(receiver.to('/signed')).toHaveLength(1), waitLong);
    const [request] = receiver.to('/signed');
    expect(request!.headers['content-type']).toBe('application/json');
    // Throws unless the signature, id and timestamp headers are right.
    const verified = new StandardWebhook(hook.secret).verify(request!.body, {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    });
    expect(verified).toEqual(JSON.parse(request!.body));
    expect(() =>
      new StandardWebhook(hook.secret).verify(`${request!.body} `, {
        'webhook-id': String(request!.headers['webhook-id']),
        'webhook-timestamp': String(request!.headers['webhook-timestamp']),
        'webhook-signature': String(request!.headers['webhook-signature']),
      }),
    ).toThrow();

    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, application.id));
    const payload = payloadOf(request!);
    expect(payload).toEqual({
      type: 'user_login',
      timestamp: log!.createdAt.toISOString(),
      data: {
        application: { id: application.id, name: 'Signed App' },
        user: { id: user.id, username: user.username },
        success: true,
        ipAddress: '127.0.0.2',
        hwid: 'HW-1',
        version: '1.0.0',
        message: null,
        activityLogId: log!.id,
      },
    });
    const [delivery] = await deliveriesOf(hook.id);
    expect(request!.headers['webhook-id']).toBe(delivery!.id);
    await vi.waitFor(
      async () =>
        expect((await deliveriesOf(hook.id))[0]).toMatchObject({
          status: 'succeeded',
          attempts: 1,
          lastStatus: 200,
          lastError: null,
        }),
      waitLong,
    );
  });

  it('signs with the UTF-8 bytes of a secret without the whsec_ prefix', async () => {
    const application = await newApplication();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    await webhook({ url: receiver.url('/plain'), events: ['user_login'], secret: 'plain sécret' });
    await logIn(application.apiKey, user.username);
    await vi.waitFor(() => expect(receiver.to('/plain')).toHaveLength(1), waitLong);
    const [request] = receiver.to('/plain');
    const verifier = new StandardWebhook(Buffer.from('plain sécret', 'utf8'), { format: 'raw' });
    expect(() =>
      verifier.verify(request!.body, {
        'webhook-id': String(request!.headers['webhook-id']),
        'webhook-timestamp': String(request!.headers['webhook-timestamp']),
        'webhook-signature': String(request!.headers['webhook-signature']),
      }),
    ).not.toThrow();
  });

  it('renders Discord embeds and Slack blocks when the format says so', async () => {
    const application = await newApplication('Chat App');
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    await webhook({
      url: receiver.url('/api/webhooks/123/discord-token'),
      events: ['login_failed'],
      format: 'discord',
    });
    await webhook({
      url: receiver.url('/services/T0/B0/slack'),
      events: ['login_failed'],
      format: 'slack',
    });
    await logIn(application.apiKey, user.username, 'wrong password');
    await vi.waitFor(() => {
      expect(receiver.to('/api/webhooks/123/discord-token')).toHaveLength(1);
      expect(receiver.to('/services/T0/B0/slack')).toHaveLength(1);
    }, waitLong);

    const discord = JSON.parse(receiver.to('/api/webhooks/123/discord-token')[0]!.body);
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect(discord.embeds).toHaveLength(1);
    const embed = discord.embeds[0];
    expect(embed).toMatchObject({ title: 'Login Failed', color: 0xef4444 });
    expect(
      Object.fromEntries(
        embed.fields.map((field: { name: string; value: string }) => [field.name, field.value]),
      ),
    ).toMatchObject({
      Application: 'Chat App',
      User: user.username,
      IP: '127.0.0.2',
      HWID: 'HW-1',
      Version: '1.0.0',
      Message: expect.any(String),
    });

    const slack = JSON.parse(receiver.to('/services/T0/B0/slack')[0]!.body);
    expect(slack.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Login Failed' },
    });
    const section = slack.blocks[1];
    expect(section.type).toBe('section');
    expect(section.fields.map((field: { text: string }) => field.text)).toEqual(
      expect.arrayContaining([
        '*Application*\nChat App',
        `*User*\n${user.username}`,
        '*IP*\n127.0.0.2',
      ]),
    );
  });

  it('queues, with the login, exactly the deliveries each webhook subscribes to', async () => {
    const first = await newApplication('First');
    const second = await newApplication('Second');
    const firstUser = await insertAppUserWithPassword(db(), first.id, PASSWORD);
    const secondUser = await insertAppUserWithPassword(db(), second.id, PASSWORD);
    // A path nobody looks at: this test reads the outbox, not the receiver.
    const url = receiver.url('/filtering');
    const firstLogins = await webhook({ url, events: ['user_login'], applicationId: first.id });
    const allFailures = await webhook({ url, events: ['login_failed'] });
    const paused = await webhook({ url, events: ['user_login', 'login_failed'], isActive: false });
    const [otherOwner] = await db()
      .insert(ownerAccounts)
      .values({ firebaseUid: `other-${Date.now()}`, email: 'other@example.com' })
      .returning();
    const foreign = await insertTestWebhook(db(), testApp.config.serverSecret, {
      ownerAccountId: otherOwner!.id,
      url,
      events: ['user_login', 'login_failed'],
    });

    // Acknowledged means written: each response is only sent after its row and its
    // deliveries are committed, so they are there the moment it arrives.
    await logIn(first.apiKey, firstUser.username);
    expect((await deliveriesOf(firstLogins.id)).map((row) => row.event)).toEqual(['user_login']);
    await logIn(second.apiKey, secondUser.username, 'wrong');
    expect((await deliveriesOf(allFailures.id)).map((row) => row.event)).toEqual(['login_failed']);
    await logIn(second.apiKey, secondUser.username);
    await logIn(first.apiKey, firstUser.username, 'wrong');

    expect((await deliveriesOf(firstLogins.id)).map((row) => row.event)).toEqual(['user_login']);
    expect(
      (await deliveriesOf(allFailures.id)).map((row) => [
        row.event,
        row.payload.data.application.id,
      ]),
    ).toEqual([
      ['login_failed', second.id],
      ['login_failed', first.id],
    ]);
    expect(await deliveriesOf(paused.id)).toEqual([]);
    expect(await deliveriesOf(foreign.id)).toEqual([]);
    const [firstLoginLog] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.applicationId, first.id), eq(activityLogs.event, 'user_login')));
    expect((await deliveriesOf(firstLogins.id))[0]!.activityLogId).toBe(firstLoginLog!.id);
  });

  it('retries a failing endpoint on the schedule with the same webhook-id, then fails it', async () => {
    const application = await newApplication();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    let flakyCalls = 0;
    receiver.answerWith(({ path }) => {
      if (path === '/flaky') return { status: (flakyCalls += 1) <= 2 ? 500 : 204 };
      if (path === '/down') return { status: 503 };
      return { status: 200 };
    });
    const flaky = await webhook({ url: receiver.url('/flaky'), events: ['user_login'] });
    const down = await webhook({ url: receiver.url('/down'), events: ['user_login'] });
    await logIn(application.apiKey, user.username);

    await vi.waitFor(
      async () => {
        expect((await deliveriesOf(flaky.id))[0]).toMatchObject({ status: 'succeeded' });
        expect((await deliveriesOf(down.id))[0]).toMatchObject({ status: 'failed' });
      },
      { timeout: 15_000, interval: 50 },
    );
    const flakyRequests = receiver.to('/flaky');
    expect(flakyRequests.map((request) => request.status)).toEqual([500, 500, 204]);
    const [flakyDelivery] = await deliveriesOf(flaky.id);
    expect(new Set(flakyRequests.map((request) => request.headers['webhook-id']))).toEqual(
      new Set([flakyDelivery!.id]),
    );
    // WEBHOOK_RETRY_DELAYS_SECONDS=1,1: about a second between attempts.
    expect(flakyRequests[1]!.receivedAt - flakyRequests[0]!.receivedAt).toBeGreaterThanOrEqual(900);
    expect(flakyDelivery).toMatchObject({ attempts: 3, lastStatus: 204, lastError: null });
    expect(flakyDelivery!.completedAt).not.toBeNull();

    // Three attempts (one plus two retries), then failed for good.
    expect(receiver.to('/down')).toHaveLength(3);
    expect((await deliveriesOf(down.id))[0]).toMatchObject({
      attempts: 3,
      lastStatus: 503,
      lastError: 'HTTP 503 Service Unavailable',
    });
    const [downHook] = await db().select().from(webhooks).where(eq(webhooks.id, down.id));
    expect(downHook!.failingSince).not.toBeNull();
    expect(downHook!.isActive).toBe(true);
    const [flakyHook] = await db().select().from(webhooks).where(eq(webhooks.id, flaky.id));
    expect(flakyHook!.failingSince).toBeNull();
    receiver.answerWith(() => ({ status: 200 }));
  }, 30_000);

  it('honours a 429 Retry-After longer than the schedule', async () => {
    const application = await newApplication();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    let calls = 0;
    receiver.answerWith(({ path }) =>
      path === '/busy' && (calls += 1) === 1
        ? { status: 429, headers: { 'retry-after': '3' } }
        : { status: 200 },
    );
    const hook = await webhook({ url: receiver.url('/busy'), events: ['user_login'] });
    await logIn(application.apiKey, user.username);
    await vi.waitFor(
      async () => expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'succeeded' }),
      { timeout: 15_000, interval: 50 },
    );
    const [first, second] = receiver.to('/busy');
    expect(first!.status).toBe(429);
    // The schedule alone would have retried after 1 s.
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(2_800);
    receiver.answerWith(() => ({ status: 200 }));
  }, 30_000);

  it('disables a webhook whose endpoint answers 410 Gone, and sends it nothing more', async () => {
    const application = await newApplication();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    receiver.answerWith(({ path }) => ({ status: path === '/gone' ? 410 : 200 }));
    const hook = await webhook({
      url: receiver.url('/gone'),
      events: ['user_login', 'login_failed'],
    });
    await logIn(application.apiKey, user.username);
    await vi.waitFor(
      async () => expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'failed' }),
      waitLong,
    );
    const [disabled] = await db().select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(disabled).toMatchObject({ isActive: false, disabledReason: WEBHOOK_GONE_REASON });
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ attempts: 1, lastStatus: 410 });
    await logIn(application.apiKey, user.username, 'wrong');
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    expect(receiver.to('/gone')).toHaveLength(1);
    receiver.answerWith(() => ({ status: 200 }));
  });

  it('disables a webhook that has failed every attempt for five days', async () => {
    const application = await newApplication();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    receiver.answerWith(({ path }) => ({ status: path === '/stale' ? 500 : 200 }));
    const hook = await webhook({ url: receiver.url('/stale'), events: ['user_login'] });
    await db()
      .update(webhooks)
      .set({ failingSince: new Date(Date.now() - 5 * 24 * 3600 * 1000 - 60_000) })
      .where(eq(webhooks.id, hook.id));
    await logIn(application.apiKey, user.username);
    await vi.waitFor(async () => {
      const [row] = await db().select().from(webhooks).where(eq(webhooks.id, hook.id));
      expect(row).toMatchObject({ isActive: false, disabledReason: WEBHOOK_FAILING_REASON });
    }, waitLong);
    // Its remaining attempts are not sent: the delivery fails as disabled when next due.
    await vi.waitFor(
      async () =>
        expect((await deliveriesOf(hook.id))[0]).toMatchObject({
          status: 'failed',
          lastError: WEBHOOK_DISABLED_ERROR,
        }),
      waitLong,
    );
    expect(receiver.to('/stale')).toHaveLength(1);
    receiver.answerWith(() => ({ status: 200 }));
  });

  it('sends a failed delivery again, with the same id, when retried by hand', async () => {
    const application = await newApplication();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    receiver.answerWith(({ path }) => ({ status: path === '/manual' ? 500 : 200 }));
    const hook = await webhook({ url: receiver.url('/manual'), events: ['user_login'] });
    await logIn(application.apiKey, user.username);
    await vi.waitFor(
      async () => expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'failed' }),
      { timeout: 15_000, interval: 50 },
    );
    receiver.answerWith(() => ({ status: 200 }));
    const [failed] = await deliveriesOf(hook.id);
    // The owner route's verb, as the console's Retry button calls it.
    const [account] = await db()
      .select()
      .from(ownerAccounts)
      .where(eq(ownerAccounts.id, ownerAccountId));
    const ctx = {
      db: db(),
      log: testApp.app.log,
      clock: systemClock,
      account: account!,
      actor: { token: null, ipAddress: '127.0.0.1' },
    };
    await expect(
      retryWebhookDelivery({ ctx, input: { deliveryId: failed!.id, webhookId: hook.id + 1000 } }),
    ).rejects.toThrow();
    expect(
      await retryWebhookDelivery({ ctx, input: { deliveryId: failed!.id, webhookId: hook.id } }),
    ).toMatchObject({ id: failed!.id, status: 'pending' });
    testApp.app.webhookDispatcher?.wake();
    await vi.waitFor(
      async () =>
        expect((await deliveriesOf(hook.id))[0]).toMatchObject({
          status: 'succeeded',
          attempts: 4,
          lastStatus: 200,
        }),
      waitLong,
    );
    const requests = receiver.to('/manual');
    expect(requests.map((request) => request.status)).toEqual([500, 500, 500, 200]);
    expect(requests[3]!.headers['webhook-id']).toBe(failed!.id);
  }, 30_000);

  it('refuses a manual retry while an attempt is in flight, so the delivery is sent once', async () => {
    const application = await newApplication();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    receiver.answerWith(({ path }) =>
      path === '/in-flight' ? { status: 200, delayMs: 1500 } : { status: 200 },
    );
    const hook = await webhook({ url: receiver.url('/in-flight'), events: ['user_login'] });
    await logIn(application.apiKey, user.username);
    await vi.waitFor(() => expect(receiver.to('/in-flight')).toHaveLength(1), waitLong);
    const [inFlight] = await deliveriesOf(hook.id);
    expect(inFlight).toMatchObject({ status: 'pending', attempts: 1 });
    expect(inFlight!.claimedUntil).not.toBeNull();
    const [account] = await db()
      .select()
      .from(ownerAccounts)
      .where(eq(ownerAccounts.id, ownerAccountId));
    const ctx = {
      db: db(),
      log: testApp.app.log,
      clock: systemClock,
      account: account!,
      actor: { token: null, ipAddress: '127.0.0.1' },
    };
    const retry = () =>
      retryWebhookDelivery({ ctx, input: { deliveryId: inFlight!.id, webhookId: hook.id } });
    await expect(retry()).rejects.toMatchObject({
      code: 'CONFLICT',
      message: WEBHOOK_DELIVERY_IN_FLIGHT,
    });
    testApp.app.webhookDispatcher?.wake();
    await vi.waitFor(
      async () =>
        expect((await deliveriesOf(hook.id))[0]).toMatchObject({
          status: 'succeeded',
          attempts: 1,
          claimedUntil: null,
        }),
      waitLong,
    );
    expect(receiver.to('/in-flight')).toHaveLength(1);

    // Finished, it may be sent again by hand: once more, with the same webhook-id.
    await expect(retry()).resolves.toMatchObject({ id: inFlight!.id, status: 'pending' });
    testApp.app.webhookDispatcher?.wake();
    await vi.waitFor(() => expect(receiver.to('/in-flight')).toHaveLength(2), waitLong);
    expect(receiver.to('/in-flight').map((request) => request.headers['webhook-id'])).toEqual([
      inFlight!.id,
      inFlight!.id,
    ]);
  }, 30_000);

  it('queues session_end when the client ends a session and when the owner pauses the user', async () => {
    const owner = await signInOwner(testApp.app);
    const application = await insertClientApplication(testApp, owner.accountId, {
      name: 'Sessions',
    });
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD);
    const hook = await insertTestWebhook(db(), testApp.config.serverSecret, {
      ownerAccountId: owner.accountId,
      url: receiver.url('/sessions'),
      events: ['session_end'],
    });
    const startSession = async () => {
      const login = (await logIn(application.apiKey, user.username)).json() as {
        session_token: string;
      };
      const started = await callClientApi(testApp.app, 'session/track', {
        apiKey: application.apiKey,
        body: { action: 'start', user_id: user.id, session_token: login.session_token },
      });
      expect(started.json()).toMatchObject({ success: true });
      return login.session_token;
    };

    const token = await startSession();
    const ended = await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'end', session_token: token },
    });
    expect(ended.json()).toMatchObject({ success: true });
    // In the same statement as the end: there as soon as the answer is.
    expect((await deliveriesOf(hook.id)).map((row) => row.payload.data.sessionEndReason)).toEqual([
      'client',
    ]);

    await startSession();
    const paused = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/users/${user.id}/pause`,
      headers: owner.headers,
    });
    expect(paused.statusCode).toBe(200);
    const rows = await deliveriesOf(hook.id);
    expect(rows.map((row) => row.payload.data.sessionEndReason)).toEqual(['client', 'owner']);
    const [endedSession] = await db()
      .select()
      .from(appUserSessions)
      .where(and(eq(appUserSessions.appUserId, user.id), eq(appUserSessions.endReason, 'owner')));
    expect(rows[1]!.payload).toEqual({
      type: 'session_end',
      timestamp: endedSession!.endedAt!.toISOString(),
      data: {
        application: { id: application.id, name: 'Sessions' },
        user: { id: user.id, username: user.username },
        success: true,
        ipAddress: '127.0.0.2',
        hwid: null,
        version: null,
        message: null,
        activityLogId: null,
        sessionEndReason: 'owner',
      },
    });
    await vi.waitFor(() => expect(receiver.to('/sessions')).toHaveLength(2), waitLong);
    expect(receiver.to('/sessions').map((request) => payloadOf(request).type)).toEqual([
      'session_end',
      'session_end',
    ]);
    // No activity row for session ends: the log keeps the spec's ten events.
    const events = await db()
      .select({ event: activityLogs.event })
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, application.id));
    expect(events.map((row) => row.event)).not.toContain('session_end');
  });
});

describe('several dispatchers on one database', () => {
  let database: DatabaseConnection;
  let receiver: WebhookReceiver;
  let webhookId: number;
  const serverSecret = 'a server secret for the dispatcher tests, long enough';
  const silentLog = pino({ level: 'silent' });
  const dispatchers: WebhookDispatcher[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startWebhookReceiver();
    const [owner] = await database.db
      .insert(ownerAccounts)
      .values({ firebaseUid: 'dispatchers', email: 'dispatchers@example.com' })
      .returning();
    const application = await insertApplication(database.db, owner!.id);
    webhookId = (
      await insertTestWebhook(database.db, serverSecret, {
        ownerAccountId: owner!.id,
        applicationId: application.id,
        url: receiver.url('/shared'),
        events: ['user_login'],
      })
    ).id;
  });
  afterAll(async () => {
    for (const dispatcher of dispatchers) await dispatcher.stop();
    await receiver?.close();
    await database?.close();
  });

  const dispatcher = (options: { leaseMs?: number } = {}) => {
    const created = createWebhookDispatcher({
      db: database.db,
      log: silentLog,
      clock: systemClock,
      serverSecret,
      isProduction: false,
      pollIntervalMs: 50,
      retryDelaysMs: [1000],
      ...options,
    });
    dispatchers.push(created);
    return created;
  };
  const queue = async (count: number) => {
    const payload: WebhookEventPayload = {
      type: 'user_login',
      timestamp: new Date().toISOString(),
      data: {
        application: { id: 1, name: 'Shared' },
        user: { id: null, username: 'someone' },
        success: true,
        ipAddress: null,
        hwid: null,
        version: null,
        message: null,
        activityLogId: null,
      },
    };
    return database.db
      .insert(webhookDeliveries)
      .values(
        Array.from({ length: count }, () => ({ webhookId, event: 'user_login' as const, payload })),
      )
      .returning();
  };

  it('never sends the same attempt twice', async () => {
    const queued = await queue(40);
    const running = [dispatcher(), dispatcher(), dispatcher()];
    for (const each of running) each.wake();
    await vi.waitFor(() => expect(receiver.to('/shared')).toHaveLength(40), waitLong);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = receiver.to('/shared').map((request) => String(request.headers['webhook-id']));
    expect(ids.toSorted()).toEqual(queued.map((row) => row.id).toSorted());
    for (const each of running) await each.stop();
  });

  it("sends again, once, a delivery whose sender died, when its claim's lease ends", async () => {
    receiver.received.length = 0;
    receiver.answerWith(() => ({ status: 200, isHung: true }));
    const [delivery] = await queue(1);
    const dying = dispatcher({ leaseMs: 1500 });
    await vi.waitFor(() => expect(receiver.to('/shared')).toHaveLength(1), waitLong);
    // The first sender hangs on its request, as a killed instance would never answer.
    receiver.answerWith(() => ({ status: 200 }));
    const claimedAt = Date.now();
    const survivor = dispatcher();
    await vi.waitFor(() => expect(receiver.to('/shared')).toHaveLength(2), waitLong);
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(1000);
    expect(receiver.to('/shared').map((request) => request.headers['webhook-id'])).toEqual([
      delivery!.id,
      delivery!.id,
    ]);
    await vi.waitFor(async () => {
      const [row] = await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, delivery!.id));
      expect(row).toMatchObject({ status: 'succeeded', attempts: 2 });
    }, waitLong);
    // The stale sender's claim is no longer current: stopping it changes nothing.
    await dying.stop();
    await survivor.stop();
    const [row] = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, delivery!.id));
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});
