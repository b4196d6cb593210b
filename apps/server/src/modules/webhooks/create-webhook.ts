import type { CreateWebhookInput, Webhook as WebhookResponse } from '@latchkey/contracts';
import { webhooks } from '../../db/schema/index.ts';
import { refusedField } from '../../lib/errors.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { assertWebhookUrlAllowed } from './assert-webhook-url-allowed.ts';
import { recordWebhookWrite } from './record-webhook-write.ts';
import { toWebhookResponse } from './to-webhook-response.ts';
import type { WebhookContext } from './webhook-context.ts';
import {
  generateWebhookSecret,
  isStandardSecretMalformed,
  secretHintOf,
  STANDARD_SECRET_MALFORMED,
} from './webhook-secret.ts';
import { encryptWebhookSecret } from '../../lib/webhook-secret-crypto.ts';

/**
 * Saves a webhook for all the owner's applications or one of them. Without a secret one is
 * generated, so every JSON delivery is signed. The answer is the only one that carries the
 * secret in full (the owner is about to paste it into their receiver); every later answer
 * masks it, and GET /api/webhooks/:id/secret reveals it on purpose. The audit entry, in the
 * same transaction, never holds it.
 */
export async function createWebhook({
  ctx,
  input,
}: {
  ctx: WebhookContext;
  input: CreateWebhookInput;
}): Promise<WebhookResponse> {
  // Another owner's application is indistinguishable from a missing one (404).
  const application =
    input.applicationId === null || input.applicationId === undefined
      ? null
      : await loadOwnedApplication({ ctx, input: { applicationId: input.applicationId } });
  await assertWebhookUrlAllowed(input.url, ctx.destinationPolicy);
  if (input.secret && isStandardSecretMalformed(input.secret)) {
    throw refusedField('BAD_REQUEST', 'secret', STANDARD_SECRET_MALFORMED);
  }
  const secret = input.secret ?? generateWebhookSecret();
  const now = ctx.clock.now();

  const webhook = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhooks)
      .values({
        ownerAccountId: ctx.account.id,
        applicationId: application?.id ?? null,
        url: input.url,
        secretEncrypted: encryptWebhookSecret(secret, ctx.serverSecret),
        secretHint: secretHintOf(secret),
        events: [...new Set(input.events)],
        format: input.format,
        isActive: input.isActive,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    await recordWebhookWrite({
      ctx: { ...ctx, db: tx },
      input: { action: 'webhook_created', webhook: created, change: input },
    });
    return created;
  });
  ctx.log.info({ webhookId: webhook.id }, 'webhook created');
  return { ...toWebhookResponse(webhook, application?.name ?? null), secret };
}
