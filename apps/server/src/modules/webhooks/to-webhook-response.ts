import type { Webhook as WebhookResponse } from '@latchkey/contracts';
import type { Webhook } from '../../db/schema/index.ts';
import { maskWebhookSecret } from './webhook-secret.ts';

/** The owner-API view of a webhook: the secret masked, its application's name (null: all). */
export function toWebhookResponse(
  webhook: Webhook,
  applicationName: string | null,
): WebhookResponse {
  return {
    id: webhook.id,
    url: webhook.url,
    secret: maskWebhookSecret(webhook.secretHint),
    events: webhook.events,
    isActive: webhook.isActive,
    applicationId: webhook.applicationId,
    application: applicationName === null ? null : { name: applicationName },
    format: webhook.format,
    disabledReason: webhook.disabledReason,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}
