import { and, count, desc, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type {
  Page,
  PageRequest,
  WebhookDelivery as WebhookDeliveryResponse,
} from '@latchkey/contracts';
import { webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { loadOwnedWebhook, ownedWebhookWhere } from './owned-webhook.ts';
import { isSendingNow, toWebhookDeliveryResponse } from './to-webhook-delivery-response.ts';

/**
 * One page of a webhook's delivery log, newest first; optionally only deliveries whose event
 * or last error contains the search. The deliveries are selected through the owner's webhook
 * (a subquery), so the statement itself cannot return another owner's log.
 */
export async function listWebhookDeliveries({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: PageRequest & { webhookId: number };
}): Promise<Page<WebhookDeliveryResponse>> {
  await loadOwnedWebhook({ ctx, input });
  const conditions: SQL[] = [
    inArray(
      webhookDeliveries.webhookId,
      ctx.db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(ownedWebhookWhere(ctx, input.webhookId)),
    ),
  ];
  if (input.search) {
    const pattern = containsPattern(input.search);
    conditions.push(
      or(ilike(webhookDeliveries.event, pattern), ilike(webhookDeliveries.lastError, pattern))!,
    );
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ delivery: webhookDeliveries, isSending: isSendingNow })
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ value: count() }).from(webhookDeliveries).where(where),
  ]);
  return {
    rows: rows.map(({ delivery, isSending }) => toWebhookDeliveryResponse(delivery, { isSending })),
    totalCount: total?.value ?? 0,
  };
}
