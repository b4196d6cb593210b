import { and, eq, inArray } from 'drizzle-orm';
import type { WebhookDelivery as WebhookDeliveryResponse } from '@latchkey/contracts';
import { webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import { loadOwnedWebhook, ownedWebhookWhere } from './owned-webhook.ts';
import { toWebhookDeliveryResponse } from './to-webhook-delivery-response.ts';

export const WEBHOOK_DELIVERY_NOT_FOUND = 'Delivery not found';

/**
 * Sends a delivery again now, whatever its state: it becomes pending and due, and the
 * dispatcher claims it like any other (the same row, so the same webhook-id, so a receiver
 * that already has it can tell). Its attempt count is kept: the retry schedule resumes.
 */
export async function retryWebhookDelivery({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { webhookId: number; deliveryId: string };
}): Promise<WebhookDeliveryResponse> {
  await loadOwnedWebhook({ ctx, input });
  const now = ctx.clock.now();
  const [delivery] = await ctx.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: now, completedAt: null, updatedAt: now })
    .where(
      and(
        eq(webhookDeliveries.id, input.deliveryId),
        inArray(
          webhookDeliveries.webhookId,
          ctx.db
            .select({ id: webhooks.id })
            .from(webhooks)
            .where(ownedWebhookWhere(ctx, input.webhookId)),
        ),
      ),
    )
    .returning();
  if (!delivery) throw notFound(WEBHOOK_DELIVERY_NOT_FOUND);
  ctx.log.info({ webhookId: input.webhookId, deliveryId: delivery.id }, 'webhook delivery retried');
  return toWebhookDeliveryResponse(delivery);
}
