import { and, eq, inArray } from 'drizzle-orm';
import { MAIL_MESSAGE_NOT_FOUND } from '@latchkey/contracts';
import { mailMessages, type MailMessage } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';

export interface MailMessageIds {
  applicationId: number;
  messageId: string;
}

/** The condition every statement on one message carries: in that application, the owner's. */
export function ownedMailMessageWhere(ctx: OwnerContext, ids: MailMessageIds) {
  return and(
    eq(mailMessages.id, ids.messageId),
    eq(mailMessages.applicationId, ids.applicationId),
    inArray(mailMessages.applicationId, ownedApplicationIds(ctx, ids.applicationId)),
  );
}

/** One of the owner's messages, or the right 404 (the application's, or the message's). */
export async function loadOwnedMailMessage(
  ctx: OwnerContext,
  ids: MailMessageIds,
): Promise<MailMessage> {
  const [message] = await ctx.db.select().from(mailMessages).where(ownedMailMessageWhere(ctx, ids));
  if (message) return message;
  await loadOwnedApplication({ ctx, input: ids });
  throw notFound(MAIL_MESSAGE_NOT_FOUND);
}
