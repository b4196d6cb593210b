import type { Webhook } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';

/**
 * A receiver's URL as the audit trail keeps it: its origin only. Many receivers (chat
 * services, automation tools) carry their own bearer token in the path or the query.
 */
export function webhookOriginOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '[invalid URL]';
  }
}

/**
 * The audit entry of a webhook's creation, change or deletion, with ctx.db (the write's
 * transaction). The change's URL is cut to its origin; its secret is redacted.
 */
export async function recordWebhookWrite({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: {
    action: 'webhook_created' | 'webhook_updated' | 'webhook_deleted';
    webhook: Pick<Webhook, 'id' | 'url' | 'applicationId'>;
    change?: { url?: string | undefined } & Record<string, unknown>;
  };
}): Promise<void> {
  const { webhook, change } = input;
  await recordOwnerWrite({
    ctx,
    input: {
      action: input.action,
      application: webhook.applicationId === null ? null : { id: webhook.applicationId },
      target: { kind: 'webhook', id: webhook.id, label: webhookOriginOf(webhook.url) },
      change:
        change === undefined
          ? null
          : {
              ...change,
              ...(change.url === undefined ? {} : { url: webhookOriginOf(change.url) }),
            },
    },
  });
}
