import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  testWebhookResponseSchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEventPayloadSchema,
  type WebhookEvent,
} from '@latchkey/contracts';
import { webhookDeliveries } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { WEBHOOK_DELIVERY_IN_FLIGHT } from './retry-webhook-delivery.ts';
import {
  createWebhookViaApi,
  insertApplication,
  insertWebhookDelivery,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';

describe('owner API: webhook delivery log, retry and test events', () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const request = ownerRequests(testApp, owner);

  describe('GET /api/webhooks/:id/deliveries', () => {
    it('answers a page of 50 newest first, with the total in a header', async () => {
      const webhook = await createWebhookViaApi(testApp.app, owner);
      const other = await createWebhookViaApi(testApp.app, owner);
      const start = Date.parse('2026-05-01T00:00:00Z');
      const inserted = [];
      for (let index = 0; index < 60; index += 1) {
        inserted.push(
          await insertWebhookDelivery(testApp.database.db, webhook.id, {
            event: index % 10 === 0 ? 'hwid_mismatch' : 'user_login',
            createdAt: new Date(start + index * 60_000),
            ...(index % 2 === 0
              ? {
                  status: 'succeeded' as const,
                  attempts: 1,
                  lastStatus: 204,
                  lastDurationMs: 35,
                  completedAt: new Date(start + index * 60_000 + 1000),
                }
              : {
                  status: 'pending' as const,
                  attempts: 2,
                  lastStatus: 503,
                  lastError: 'HTTP 503 Service Unavailable',
                  nextAttemptAt: new Date(start + index * 60_000 + 300_000),
                }),
          }),
        );
      }
      await insertWebhookDelivery(testApp.database.db, other.id);

      const page = async (query = '') => {
        const response = await request('GET', `/api/webhooks/${webhook.id}/deliveries${query}`);
        expect(response.statusCode, response.body).toBe(200);
        return {
          ids: webhookDeliveryListSchema.parse(response.json()).map((delivery) => delivery.id),
          body: webhookDeliveryListSchema.parse(response.json()),
          total: response.headers['x-total-count'],
          page: response.headers['x-page'],
          pageSize: response.headers['x-page-size'],
        };
      };
      const newestFirst = [...inserted].reverse().map((delivery) => delivery.id);

      const first = await page();
      expect(first).toMatchObject({ total: '60', page: '1', pageSize: '50' });
      expect(first.ids).toEqual(newestFirst.slice(0, 50));
      expect((await page('?page=2')).ids).toEqual(newestFirst.slice(50));
      expect((await page('?page=3&pageSize=25')).ids).toEqual(newestFirst.slice(50));
      expect(await page('?search=HWID')).toMatchObject({ total: '6' });
      expect((await page('?search=503')).total).toBe('30');

      const [pending, succeeded] = first.body;
      expect(pending).toEqual({
        id: inserted[59]!.id,
        event: 'user_login',
        status: 'pending',
        attempts: 2,
        lastStatus: 503,
        lastError: 'HTTP 503 Service Unavailable',
        lastDurationMs: null,
        nextAttemptAt: new Date(start + 59 * 60_000 + 300_000).toISOString(),
        createdAt: new Date(start + 59 * 60_000).toISOString(),
        completedAt: null,
        isSending: false,
      });
      expect(succeeded).toMatchObject({
        status: 'succeeded',
        nextAttemptAt: null,
        lastStatus: 204,
      });
      expect(JSON.stringify(first.body)).not.toContain('payload');

      for (const [query, message] of [
        ['?pageSize=0', /^pageSize: /],
        ['?page=x', /^page: /],
      ] as const) {
        const response = await request('GET', `/api/webhooks/${webhook.id}/deliveries${query}`);
        expect(response.statusCode).toBe(400);
        expect(errorBodySchema.parse(response.json()).message).toMatch(message);
      }
    });

    it("answers 404 for another owner's webhook", async () => {
      const stranger = await signInOwner(testApp.app);
      const theirs = await createWebhookViaApi(testApp.app, stranger);
      await insertWebhookDelivery(testApp.database.db, theirs.id, {
        lastError: 'their secret error',
      });
      const response = await request('GET', `/api/webhooks/${theirs.id}/deliveries`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Webhook not found', code: 'NOT_FOUND' });
      expect(response.headers['x-total-count']).toBeUndefined();
    });
  });

  describe('POST /api/webhooks/:id/deliveries/:deliveryId/retry', () => {
    it('makes a finished delivery pending and due now, keeping its attempts', async () => {
      const webhook = await createWebhookViaApi(testApp.app, owner);
      const failed = await insertWebhookDelivery(testApp.database.db, webhook.id, {
        status: 'failed',
        attempts: 8,
        lastStatus: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: new Date('2026-05-20T00:00:00Z'),
        completedAt: new Date('2026-05-20T00:00:00Z'),
      });
      clock.advance(5000);
      const response = await request(
        'POST',
        `/api/webhooks/${webhook.id}/deliveries/${failed.id}/retry`,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(webhookDeliverySchema.parse(response.json())).toMatchObject({
        id: failed.id,
        status: 'pending',
        attempts: 8,
        nextAttemptAt: clock.now().toISOString(),
        completedAt: null,
        lastError: 'HTTP 500',
      });
      const [row] = await testApp.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, failed.id));
      expect(row).toMatchObject({
        status: 'pending',
        nextAttemptAt: clock.now(),
        completedAt: null,
      });
    });

    it('answers 409 while an attempt is being sent, and retries one whose claim has lapsed', async () => {
      const webhook = await createWebhookViaApi(testApp.app, owner);
      const sending = await insertWebhookDelivery(testApp.database.db, webhook.id, {
        status: 'pending',
        attempts: 2,
        claimedUntil: new Date(Date.now() + 60_000),
      });
      const refused = await request(
        'POST',
        `/api/webhooks/${webhook.id}/deliveries/${sending.id}/retry`,
      );
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toEqual({ message: WEBHOOK_DELIVERY_IN_FLIGHT, code: 'CONFLICT' });
      const [unchanged] = await testApp.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, sending.id));
      expect(unchanged).toMatchObject({ attempts: 2, nextAttemptAt: sending.nextAttemptAt });

      // Its sender died (the lease ran out): the retry goes ahead.
      const abandoned = await insertWebhookDelivery(testApp.database.db, webhook.id, {
        status: 'pending',
        attempts: 1,
        claimedUntil: new Date(Date.now() - 1000),
      });
      // The log says which attempt is being sent, so the console need not offer the retry.
      const log = await request('GET', `/api/webhooks/${webhook.id}/deliveries`);
      const isSendingById = Object.fromEntries(
        webhookDeliveryListSchema
          .parse(log.json())
          .map((delivery) => [delivery.id, delivery.isSending]),
      );
      expect(isSendingById).toEqual({ [sending.id]: true, [abandoned.id]: false });
      const retried = await request(
        'POST',
        `/api/webhooks/${webhook.id}/deliveries/${abandoned.id}/retry`,
      );
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json()).toMatchObject({ id: abandoned.id, status: 'pending' });
    });

    it("refuses another webhook's or another owner's delivery (404) and leaves it alone", async () => {
      const mine = await createWebhookViaApi(testApp.app, owner);
      const sibling = await createWebhookViaApi(testApp.app, owner);
      const siblingDelivery = await insertWebhookDelivery(testApp.database.db, sibling.id, {
        status: 'failed',
      });
      const stranger = await signInOwner(testApp.app);
      const theirs = await createWebhookViaApi(testApp.app, stranger);
      const theirDelivery = await insertWebhookDelivery(testApp.database.db, theirs.id, {
        status: 'failed',
      });

      const cases = [
        [`/api/webhooks/${mine.id}/deliveries/${siblingDelivery.id}/retry`, 'Delivery not found'],
        [`/api/webhooks/${mine.id}/deliveries/${theirDelivery.id}/retry`, 'Delivery not found'],
        [`/api/webhooks/${theirs.id}/deliveries/${theirDelivery.id}/retry`, 'Webhook not found'],
      ] as const;
      for (const [url, message] of cases) {
        const response = await request('POST', url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ message, code: 'NOT_FOUND' });
      }
      const statuses = await testApp.database.db
        .select({ status: webhookDeliveries.status })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, theirs.id));
      expect(statuses).toEqual([{ status: 'failed' }]);
      const malformed = await request('POST', `/api/webhooks/${mine.id}/deliveries/42/retry`);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toBe('deliveryId: Invalid delivery id');
    });
  });

  describe('POST /api/test-webhook', () => {
    const sendTest = async (who: SignedInOwner, body: unknown = {}) => {
      const response = await request('POST', '/api/test-webhook', body, who);
      expect(response.statusCode, response.body).toBe(200);
      return testWebhookResponseSchema.parse(response.json());
    };
    const queuedFor = async (webhookId: number) =>
      testApp.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, webhookId));

    it('queues a sample event for each active subscriber, or every active webhook when none subscribes', async () => {
      const vendor = await signInOwner(testApp.app);
      await insertApplication(testApp.database.db, vendor.accountId, {
        name: 'Older App',
        createdAt: new Date('2026-01-01T00:00:00Z'),
      });
      await insertApplication(testApp.database.db, vendor.accountId, {
        name: 'Newest App',
        createdAt: new Date('2026-02-01T00:00:00Z'),
      });
      const scopedTo = await insertApplication(testApp.database.db, vendor.accountId, {
        name: 'Scoped App',
        createdAt: new Date('2025-12-01T00:00:00Z'),
      });
      const logins = await createWebhookViaApi(testApp.app, vendor, { events: ['user_login'] });
      const failures = await createWebhookViaApi(testApp.app, vendor, {
        events: ['login_failed', 'hwid_mismatch'],
      });
      const inactive = await createWebhookViaApi(testApp.app, vendor, {
        events: ['user_login', 'login_failed'],
        isActive: false,
      });
      const scoped = await createWebhookViaApi(testApp.app, vendor, {
        events: ['user_login'],
        applicationId: scopedTo.id,
      });

      const loginTest = await sendTest(vendor);
      expect(loginTest.queued).toBe(2);
      expect(loginTest.message).toMatch(/check your channel/i);
      const failureTest = await sendTest(vendor, { event: 'hwid_mismatch' });
      expect(failureTest.queued).toBe(1);
      const nobodyTest = await sendTest(vendor, { event: 'session_end' });
      expect(nobodyTest.queued).toBe(3);

      const eventsOf = async (webhookId: number) =>
        (await queuedFor(webhookId)).map((delivery) => delivery.event).sort();
      expect(await eventsOf(logins.id)).toEqual(['session_end', 'user_login']);
      expect(await eventsOf(failures.id)).toEqual(['hwid_mismatch', 'session_end']);
      expect(await eventsOf(scoped.id)).toEqual(['session_end', 'user_login']);
      expect(await eventsOf(inactive.id)).toEqual([]);

      for (const delivery of [...(await queuedFor(logins.id)), ...(await queuedFor(scoped.id))]) {
        expect(delivery).toMatchObject({
          status: 'pending',
          attempts: 0,
          nextAttemptAt: clock.now(),
        });
        const payload = webhookEventPayloadSchema.parse(delivery.payload);
        expect(payload.type).toBe(delivery.event);
        expect(payload.data).toMatchObject({
          isTest: true,
          user: { username: 'sample_user' },
          ipAddress: expect.any(String),
          hwid: expect.any(String),
          version: expect.any(String),
        });
        expect(payload.data.application.name).toBe(
          delivery.webhookId === scoped.id ? 'Scoped App' : 'Newest App',
        );
      }
      const [sessionEnd] = (await queuedFor(logins.id)).filter((d) => d.event === 'session_end');
      expect(webhookEventPayloadSchema.parse(sessionEnd!.payload).data).toMatchObject({
        success: true,
        sessionEndReason: 'client',
      });
      const [hwid] = await queuedFor(failures.id);
      const hwidPayload = webhookEventPayloadSchema.parse(hwid!.payload);
      expect(hwidPayload.data.success).toBe(hwid!.event === 'session_end');
    });

    it('names a placeholder application when the owner has none, and queues nothing without active webhooks', async () => {
      const newcomer = await signInOwner(testApp.app);
      expect(await sendTest(newcomer)).toEqual({
        success: true,
        queued: 0,
        message: expect.stringMatching(/no active webhooks/i),
      });
      const webhook = await createWebhookViaApi(testApp.app, newcomer, { events: [] });
      expect((await sendTest(newcomer, { event: 'login_blocked_ip' as WebhookEvent })).queued).toBe(
        1,
      );
      const [delivery] = await queuedFor(webhook.id);
      expect(webhookEventPayloadSchema.parse(delivery!.payload).data).toMatchObject({
        application: { id: 0, name: 'Sample Application' },
        success: false,
      });
    });

    it('refuses an unknown event', async () => {
      const response = await request('POST', '/api/test-webhook', { event: 'logout' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: 'event: Unknown event: logout',
        code: 'BAD_REQUEST',
        fields: [{ field: 'event', message: 'Unknown event: logout' }],
      });
    });
  });
});
