import type { OpenedMailMessage } from '@latchkey/contracts';
import type { OwnerContext } from '../../http/request-context.ts';
import { unsealMailContent } from './mail-content.ts';
import { loadOwnedMailMessage, type MailMessageIds } from './owned-mail-message.ts';
import { toMailMessageResponse } from './to-mail-message-response.ts';

/**
 * One message, with its text and HTML where the local mailbox kept them (development without
 * SMTP: the console opens it as it would be read, reset link included). A message delivered
 * over SMTP keeps no text here: only its row.
 */
export async function openMailMessage({
  ctx,
  input,
  serverSecret,
}: {
  ctx: OwnerContext;
  input: MailMessageIds;
  serverSecret: string;
}): Promise<OpenedMailMessage> {
  const message = await loadOwnedMailMessage(ctx, input);
  return {
    ...toMailMessageResponse(message),
    content:
      message.contentSealed === null
        ? null
        : unsealMailContent(message.contentSealed, serverSecret),
  };
}
