import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import {
  LOGIN_SUCCESS_EVENT,
  type TestWebhookResponse,
  type WebhookEvent,
  type WebhookEventPayload,
} from '@latchkey/contracts';
import { applications, webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';

/** Shown when the owner has no application yet to name in the sample. */
const PLACEHOLDER_APPLICATION = { id: 0, name: 'Sample Application' } as const;

/** Events a client is answered "yes" to; the others are refusals (the activity log's sense). */
const successEvents = new Set<WebhookEvent>([LOGIN_SUCCESS_EVENT, 'user_register', 'session_end']);

function samplePayload(
  event: WebhookEvent,
  application: { id: number; name: string },
  now: Date,
): WebhookEventPayload {
  const isSuccess = successEvents.has(event);
  return {
    type: event,
    timestamp: now.toISOString(),
    data: {
      application,
      user: { id: randomUUID(), username: 'sample_user' },
      success: isSuccess,
      ipAddress: '203.0.113.42',
      hwid: 'SAMPLE-HWID-0001',
      version: '1.0.0',
      message: isSuccess ? null : 'This is a test refusal from Latchkey',
      activityLogId: null,
      ...(event === 'session_end' ? { sessionEndReason: 'client' } : {}),
      isTest: true,
    },
  };
}

/**
 * Queues a sample event for every active webhook of the owner that subscribes to it, or
 * for all active ones when none does (the owner asked to test, not to be told nobody
 * listens). The deliveries go through the outbox like real events, so the test also shows
 * that the engine, the format and the signature work. A webhook for one application gets
 * that application in its sample; the others get the owner's newest application.
 */
export async function sendTestWebhook({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { event: WebhookEvent };
}): Promise<TestWebhookResponse> {
  const active = await ctx.db
    .select({
      id: webhooks.id,
      events: webhooks.events,
      applicationId: webhooks.applicationId,
      applicationName: applications.name,
    })
    .from(webhooks)
    .leftJoin(applications, eq(applications.id, webhooks.applicationId))
    .where(and(eq(webhooks.ownerAccountId, ctx.account.id), eq(webhooks.isActive, true)));
  if (active.length === 0) {
    return {
      success: true,
      queued: 0,
      message: 'No active webhooks: create or enable one to receive test events',
    };
  }
  const subscribers = active.filter((webhook) => webhook.events.includes(input.event));
  const targets = subscribers.length > 0 ? subscribers : active;

  const [newest] = targets.some((webhook) => webhook.applicationId === null)
    ? await ctx.db
        .select({ id: applications.id, name: applications.name })
        .from(applications)
        .where(eq(applications.ownerAccountId, ctx.account.id))
        .orderBy(desc(applications.createdAt), desc(applications.id))
        .limit(1)
    : [];
  const now = ctx.clock.now();
  await ctx.db.insert(webhookDeliveries).values(
    targets.map((webhook) => ({
      webhookId: webhook.id,
      event: input.event,
      payload: samplePayload(
        input.event,
        webhook.applicationId !== null && webhook.applicationName !== null
          ? { id: webhook.applicationId, name: webhook.applicationName }
          : (newest ?? PLACEHOLDER_APPLICATION),
        now,
      ),
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
  ctx.log.info({ event: input.event, queued: targets.length }, 'test webhook queued');
  const noun = targets.length === 1 ? 'webhook' : 'webhooks';
  return {
    success: true,
    queued: targets.length,
    message: `Test event sent to ${targets.length} ${noun}. Check your channel for the message.`,
  };
}
