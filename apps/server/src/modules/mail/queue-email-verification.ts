import { sql } from 'drizzle-orm';
import { EMAIL_VERIFICATION_LINK_HOURS } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';
import { createRandomToken } from '../../lib/tokens.ts';
import { sealMailSecrets } from './mail-secrets.ts';

/**
 * Queues a link that confirms the user's present address, valid for 24 hours and usable once,
 * in one statement with `db` the transaction of what causes it (a registration): the token's
 * keyed digest, with the address it confirms, and the mail. Nothing is queued for a user
 * without an address or whose address is confirmed already. Answers whether a mail was queued.
 */
export async function queueEmailVerificationMail(
  db: Database,
  input: { applicationId: number; appUserId: string; serverSecret: string },
): Promise<boolean> {
  const token = createRandomToken();
  const digest = keyedDigest(token, 'end-user-token', input.serverSecret);
  const sealed = sealMailSecrets({ token }, input.serverSecret);
  const result = await db.execute(sql`
    with unconfirmed as (
      select u.id, u.email from app_users u
      where u.id = ${input.appUserId} and u.application_id = ${input.applicationId}
        and u.email is not null and u.email <> '' and u.email_verified_at is null
    ),
    issued as (
      insert into end_user_tokens
        (application_id, app_user_id, purpose, token_digest, email, expires_at)
      select ${input.applicationId}, id, 'email_verification', ${digest}, email,
             now() + make_interval(hours => ${EMAIL_VERIFICATION_LINK_HOURS})
      from unconfirmed
    )
    insert into mail_messages (application_id, app_user_id, kind, recipient, secrets_sealed)
    select ${input.applicationId}, id, 'email_verification', email, ${sealed} from unconfirmed
    returning id`);
  return rowsOf(result).length > 0;
}
