import { webhooks } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { ownedWebhookWhere, webhookNotFound } from './owned-webhook.ts';
import { recordWebhookWrite } from './record-webhook-write.ts';

/**
 * Deletes one of the owner's webhooks, with its audit entry in the same transaction; its
 * queued and logged deliveries go with it (cascade).
 */
export async function deleteWebhook({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { webhookId: number };
}): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(webhooks)
      .where(ownedWebhookWhere(ctx, input.webhookId))
      .returning({ id: webhooks.id, url: webhooks.url, applicationId: webhooks.applicationId });
    if (!row) return undefined;
    await recordWebhookWrite({
      ctx: { ...ctx, db: tx },
      input: { action: 'webhook_deleted', webhook: row },
    });
    return row;
  });
  if (!deleted) throw webhookNotFound();
  ctx.log.info({ webhookId: deleted.id }, 'webhook deleted');
}
