import { sql } from 'drizzle-orm';
import { PASSWORD_RESET_LINK_MINUTES } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';
import { createRandomToken } from '../../lib/tokens.ts';
import { sealMailSecrets } from './mail-secrets.ts';

/** One address may belong to several accounts; each gets its own link, up to this many. */
const MAX_ACCOUNTS_PER_ADDRESS = 3;

export type ResetTarget = { username: string } | { email: string } | { appUserId: string };

/**
 * Queues a link to choose a new password for the account(s) named, each with a single-use
 * token valid for 30 minutes, and answers how many mails were queued. One statement finds the
 * accounts, stores each token's keyed digest and writes each mail to the outbox, so whether
 * or not an account matches, the caller does the same work in the same round trip: the answer
 * time does not tell who has an account. An account without an address is not found.
 */
export async function queuePasswordResetMail(
  db: Database,
  input: { applicationId: number; target: ResetTarget; serverSecret: string },
): Promise<number> {
  const tokens = Array.from({ length: MAX_ACCOUNTS_PER_ADDRESS }, () => createRandomToken());
  const digests = tokens.map((token) => keyedDigest(token, 'end-user-token', input.serverSecret));
  const sealed = tokens.map((token) => sealMailSecrets({ token }, input.serverSecret));
  const { target } = input;
  const matches =
    'username' in target
      ? sql`u.username = ${target.username}`
      : 'email' in target
        ? sql`lower(u.email) = lower(${target.email})`
        : sql`u.id = ${target.appUserId}`;
  const result = await db.execute(sql`
    with matched as (
      select u.id, u.email, row_number() over (order by u.created_at, u.id) as n
      from app_users u
      where u.application_id = ${input.applicationId} and u.email is not null
        and u.email <> '' and ${matches}
      order by u.created_at, u.id
      limit ${MAX_ACCOUNTS_PER_ADDRESS}
    ),
    issued as (
      select m.id as user_id, m.email, t.digest, t.sealed
      from matched m
      join unnest(${sql.param(digests)}::text[], ${sql.param(sealed)}::text[])
        with ordinality as t(digest, sealed, n) on t.n = m.n
    ),
    tokens as (
      insert into end_user_tokens (application_id, app_user_id, purpose, token_digest, expires_at)
      select ${input.applicationId}, user_id, 'password_reset', digest,
             now() + make_interval(mins => ${PASSWORD_RESET_LINK_MINUTES})
      from issued
    )
    insert into mail_messages (application_id, app_user_id, kind, recipient, secrets_sealed)
    select ${input.applicationId}, user_id, 'password_reset', email, sealed from issued
    returning id`);
  return rowsOf(result).length;
}
