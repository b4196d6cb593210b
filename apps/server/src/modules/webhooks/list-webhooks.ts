import { desc, eq } from 'drizzle-orm';
import type { Webhook as WebhookResponse } from '@latchkey/contracts';
import { applications, webhooks } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { toWebhookResponse } from './to-webhook-response.ts';

/** The owner's webhooks, newest first; an owner has a handful, so the list is not paged. */
export async function listWebhooks({ ctx }: { ctx: OwnerContext }): Promise<WebhookResponse[]> {
  const rows = await ctx.db
    .select({ webhook: webhooks, applicationName: applications.name })
    .from(webhooks)
    .leftJoin(applications, eq(applications.id, webhooks.applicationId))
    .where(eq(webhooks.ownerAccountId, ctx.account.id))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
  return rows.map((row) => toWebhookResponse(row.webhook, row.applicationName));
}
