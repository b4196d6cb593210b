import type { MailKind } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { mailMessages } from '../../db/schema/index.ts';
import { sealMailSecrets, type MailSecrets } from './mail-secrets.ts';

/**
 * Writes one message to the outbox, with `db` the transaction of what causes it (a minted
 * key and its mail land together or not at all). `secrets` (a licence key) are sealed and
 * dropped once delivered; `values` are kept for the template as they are. Answers its id;
 * the caller wakes the worker after commit.
 */
export async function queueMail(
  db: Database,
  input: {
    applicationId: number;
    appUserId?: string | null;
    kind: MailKind;
    recipient: string;
    values?: Record<string, string>;
    secrets?: MailSecrets;
    serverSecret: string;
  },
): Promise<string> {
  const [row] = await db
    .insert(mailMessages)
    .values({
      applicationId: input.applicationId,
      appUserId: input.appUserId ?? null,
      kind: input.kind,
      recipient: input.recipient,
      values: input.values ?? {},
      secretsSealed: input.secrets ? sealMailSecrets(input.secrets, input.serverSecret) : null,
    })
    .returning({ id: mailMessages.id });
  return row!.id;
}
