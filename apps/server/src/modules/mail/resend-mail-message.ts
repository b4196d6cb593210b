import { and, eq } from 'drizzle-orm';
import { MAIL_RESEND_NOT_FAILED, mailKindLabels, type MailMessage } from '@latchkey/contracts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { mailMessages } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { AppError } from '../../lib/errors.ts';
import {
  loadOwnedMailMessage,
  ownedMailMessageWhere,
  type MailMessageIds,
} from './owned-mail-message.ts';
import { toMailMessageResponse } from './to-mail-message-response.ts';

/**
 * Sends a failed message again: it is queued and due now, the same row (so the same
 * Message-ID), its attempts and last error kept for the record. Only a failed one: a queued,
 * retrying or sending message is on its way already, and a sent one would reach its reader
 * twice (409). A reset link in it keeps its own 30 minutes from when it was asked for.
 */
export async function resendMailMessage({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: MailMessageIds;
}): Promise<MailMessage> {
  const now = ctx.clock.now();
  const resent = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(mailMessages)
      .set({ status: 'queued', nextAttemptAt: now, updatedAt: now })
      .where(and(ownedMailMessageWhere(ctx, input), eq(mailMessages.status, 'failed')))
      .returning();
    if (!row) return null;
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'mail_resent',
        application: { id: input.applicationId },
        // Not the address: the trail names no end user.
        target: { kind: 'mail_message', id: row.id, label: mailKindLabels[row.kind] },
        change: { kind: row.kind },
      },
    });
    return row;
  });
  if (resent) return toMailMessageResponse(resent);
  // Nothing changed: the message is not the owner's (404), or not failed (409).
  await loadOwnedMailMessage(ctx, input);
  throw new AppError('CONFLICT', MAIL_RESEND_NOT_FAILED);
}
