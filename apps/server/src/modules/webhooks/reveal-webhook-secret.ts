import type { WebhookSecretResponse } from '@latchkey/contracts';
import { loadOwnedWebhook } from './owned-webhook.ts';
import type { WebhookContext } from './webhook-context.ts';
import { decryptWebhookSecret } from '../../lib/webhook-secret-crypto.ts';

/** The full signing secret, for the owner's receiver; logged, as any reveal of a secret should be. */
export async function revealWebhookSecret({
  ctx,
  input,
}: {
  ctx: Pick<WebhookContext, 'db' | 'log' | 'clock' | 'account' | 'actor' | 'serverSecret'>;
  input: { webhookId: number };
}): Promise<WebhookSecretResponse> {
  const { webhook } = await loadOwnedWebhook({ ctx, input });
  const secret = decryptWebhookSecret(webhook.secretEncrypted, ctx.serverSecret);
  ctx.log.info({ webhookId: webhook.id }, 'webhook secret revealed');
  return { secret };
}
