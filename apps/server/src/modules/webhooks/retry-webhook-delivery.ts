import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { WebhookDelivery as WebhookDeliveryResponse } from '@latchkey/contracts';
import { webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedWebhook, ownedWebhookWhere } from './owned-webhook.ts';
import { webhookOriginOf } from './record-webhook-write.ts';
import { toWebhookDeliveryResponse } from './to-webhook-delivery-response.ts';

export const WEBHOOK_DELIVERY_NOT_FOUND = 'Delivery not found';
export const WEBHOOK_DELIVERY_IN_FLIGHT =
  'This delivery is being sent right now. Retry it once this attempt has finished.';

/**
 * Sends a delivery again now, whatever its state, unless an attempt is being sent at this
 * moment (409: made due again, it would be claimed and sent a second time beside it). It
 * becomes pending and due, and the dispatcher claims it like any other (the same row, so the
 * same webhook-id, so a receiver that already has it can tell). Its attempt count is kept:
 * the retry schedule resumes.
 */
export async function retryWebhookDelivery({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { webhookId: number; deliveryId: string };
}): Promise<WebhookDeliveryResponse> {
  const { webhook } = await loadOwnedWebhook({ ctx, input });
  const now = ctx.clock.now();
  const ownedDelivery = and(
    eq(webhookDeliveries.id, input.deliveryId),
    inArray(
      webhookDeliveries.webhookId,
      ctx.db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(ownedWebhookWhere(ctx, input.webhookId)),
    ),
  );
  const delivery = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now, completedAt: null, updatedAt: now })
      .where(
        and(
          ownedDelivery,
          // A claim whose lease ended belongs to a sender that died: retrying it is safe. The
          // database's clock, as the claim's lease was set with it.
          or(
            isNull(webhookDeliveries.claimedUntil),
            lte(webhookDeliveries.claimedUntil, sql`now()`),
          ),
        ),
      )
      .returning();
    if (row) {
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'webhook_delivery_retried',
          application: webhook.applicationId === null ? null : { id: webhook.applicationId },
          target: { kind: 'webhook_delivery', id: row.id, label: webhookOriginOf(webhook.url) },
          change: { webhookId: webhook.id, attempts: row.attempts },
        },
      });
    }
    return row;
  });
  if (!delivery) {
    const [inFlight] = await ctx.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(ownedDelivery);
    throw inFlight
      ? new AppError('CONFLICT', WEBHOOK_DELIVERY_IN_FLIGHT)
      : notFound(WEBHOOK_DELIVERY_NOT_FOUND);
  }
  ctx.log.info({ webhookId: input.webhookId, deliveryId: delivery.id }, 'webhook delivery retried');
  // Retried only when no claim was current: nothing is being sent at this moment.
  return toWebhookDeliveryResponse(delivery, { isSending: false });
}
