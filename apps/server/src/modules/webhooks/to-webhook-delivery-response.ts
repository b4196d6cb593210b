import type { WebhookDelivery as WebhookDeliveryResponse } from '@latchkey/contracts';
import type { WebhookDelivery } from '../../db/schema/index.ts';

/** One entry of the delivery log; the payload stays out (the owner sees the event, not the data). */
export function toWebhookDeliveryResponse(delivery: WebhookDelivery): WebhookDeliveryResponse {
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
  };
}
