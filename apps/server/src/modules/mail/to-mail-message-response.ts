import type { MailMessage as MailMessageResponse } from '@latchkey/contracts';
import type { MailMessage } from '../../db/schema/index.ts';

/** A message as the mail log shows it: never its secrets or its sealed text. */
export function toMailMessageResponse(message: MailMessage): MailMessageResponse {
  return {
    id: message.id,
    kind: message.kind,
    to: message.recipient,
    subject: message.subject,
    status: message.status,
    attempts: message.attempts,
    lastError: message.lastError,
    createdAt: message.createdAt.toISOString(),
    sentAt: message.sentAt?.toISOString() ?? null,
    canOpen: message.contentSealed !== null,
  };
}
