import { webhooks } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { ownedWebhookWhere, webhookNotFound } from './owned-webhook.ts';

/** Deletes one of the owner's webhooks; its queued and logged deliveries go with it (cascade). */
export async function deleteWebhook({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { webhookId: number };
}): Promise<void> {
  const [deleted] = await ctx.db
    .delete(webhooks)
    .where(ownedWebhookWhere(ctx, input.webhookId))
    .returning({ id: webhooks.id });
  if (!deleted) throw webhookNotFound();
  ctx.log.info({ webhookId: deleted.id }, 'webhook deleted');
}
