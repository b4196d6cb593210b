import { and, eq } from 'drizzle-orm';
import { WEBHOOK_NOT_FOUND } from '@latchkey/contracts';
import { applications, webhooks, type Webhook } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';

/** The condition every statement on one of the owner's webhooks carries. */
export function ownedWebhookWhere(ctx: OwnerContext, webhookId: number) {
  return and(eq(webhooks.id, webhookId), eq(webhooks.ownerAccountId, ctx.account.id));
}

export const webhookNotFound = () => notFound(WEBHOOK_NOT_FOUND);

/**
 * The signed-in owner's webhook with its application's name, or a 404: another owner's
 * webhook is indistinguishable from one that does not exist.
 */
export async function loadOwnedWebhook({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { webhookId: number };
}): Promise<{ webhook: Webhook; applicationName: string | null }> {
  const [row] = await ctx.db
    .select({ webhook: webhooks, applicationName: applications.name })
    .from(webhooks)
    .leftJoin(applications, eq(applications.id, webhooks.applicationId))
    .where(ownedWebhookWhere(ctx, input.webhookId))
    .limit(1);
  if (!row) throw webhookNotFound();
  return row;
}
