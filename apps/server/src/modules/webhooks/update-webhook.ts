import type { UpdateWebhookInput, Webhook as WebhookResponse } from '@latchkey/contracts';
import { webhooks } from '../../db/schema/index.ts';
import { refusedField } from '../../lib/errors.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { assertWebhookUrlAllowed } from './assert-webhook-url-allowed.ts';
import { loadOwnedWebhook, ownedWebhookWhere, webhookNotFound } from './owned-webhook.ts';
import { recordWebhookWrite } from './record-webhook-write.ts';
import { toWebhookResponse } from './to-webhook-response.ts';
import type { WebhookContext } from './webhook-context.ts';
import {
  isStandardSecretMalformed,
  secretHintOf,
  STANDARD_SECRET_MALFORMED,
} from './webhook-secret.ts';
import { encryptWebhookSecret } from '../../lib/webhook-secret-crypto.ts';

/**
 * Applies the given changes (absent fields stay as they are). An absent or blank secret
 * keeps the current one: the edit dialog cannot show it, and a webhook is never unsigned.
 * A new URL passes the same checks as at creation. Switching a webhook on clears why the
 * engine switched it off, and its run of failures. The audit entry is written in the same
 * transaction, without the secret.
 */
export async function updateWebhook({
  ctx,
  input,
}: {
  ctx: WebhookContext;
  input: { webhookId: number; changes: UpdateWebhookInput };
}): Promise<WebhookResponse> {
  const { changes } = input;
  const current = await loadOwnedWebhook({ ctx, input });
  const application =
    changes.applicationId === undefined || changes.applicationId === null
      ? null
      : await loadOwnedApplication({ ctx, input: { applicationId: changes.applicationId } });
  if (changes.url !== undefined) await assertWebhookUrlAllowed(changes.url, ctx.destinationPolicy);
  if (changes.secret && isStandardSecretMalformed(changes.secret)) {
    throw refusedField('BAD_REQUEST', 'secret', STANDARD_SECRET_MALFORMED);
  }
  const isSwitchedOn = changes.isActive === true;

  const webhook = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhooks)
      .set({
        url: changes.url,
        events: changes.events === undefined ? undefined : [...new Set(changes.events)],
        isActive: changes.isActive,
        applicationId: changes.applicationId === undefined ? undefined : (application?.id ?? null),
        format: changes.format,
        ...(changes.secret
          ? {
              secretEncrypted: encryptWebhookSecret(changes.secret, ctx.serverSecret),
              secretHint: secretHintOf(changes.secret),
            }
          : {}),
        ...(isSwitchedOn ? { disabledReason: null, failingSince: null } : {}),
        updatedAt: ctx.clock.now(),
      })
      .where(ownedWebhookWhere(ctx, input.webhookId))
      .returning();
    if (!updated) return undefined;
    await recordWebhookWrite({
      ctx: { ...ctx, db: tx },
      input: { action: 'webhook_updated', webhook: updated, change: changes },
    });
    return updated;
  });
  if (!webhook) throw webhookNotFound();
  ctx.log.info({ webhookId: webhook.id }, 'webhook updated');
  const applicationName =
    changes.applicationId === undefined ? current.applicationName : (application?.name ?? null);
  return toWebhookResponse(webhook, applicationName);
}
