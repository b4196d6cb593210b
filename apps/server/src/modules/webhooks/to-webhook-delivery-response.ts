import type { WebhookDelivery as WebhookDeliveryResponse } from '@latchkey/contracts';
import { sql } from 'drizzle-orm';
import { webhookDeliveries, type WebhookDelivery } from '../../db/schema/index.ts';

/**
 * One entry of the delivery log; the payload stays out (the owner sees the event, not the
 * data). `isSending` as the database's clock judges the claim (isSendingNow), as the retry does.
 */
export function toWebhookDeliveryResponse(
  delivery: WebhookDelivery,
  { isSending }: { isSending: boolean },
): WebhookDeliveryResponse {
  return {
    id: delivery.id,
    event: delivery.event,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    lastDurationMs: delivery.lastDurationMs,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    createdAt: delivery.createdAt.toISOString(),
    completedAt: delivery.completedAt?.toISOString() ?? null,
    isSending,
  };
}

/** Whether a dispatcher's claim on the delivery is current: an attempt is in flight. */
export const isSendingNow = sql<boolean>`coalesce(${webhookDeliveries.claimedUntil} > now(), false)`;
