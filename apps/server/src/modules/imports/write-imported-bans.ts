import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { ImportRecord } from '../../db/schema/index.ts';
import type { KeyAuthBanRow } from './keyauth-application-export.ts';

/** What an imported entry says, so the owner's list tells it from their own. */
export const IMPORTED_BAN_REASON = 'Blacklisted in KeyAuth';

/**
 * One batch of KeyAuth bans as blacklist entries of the application, in one statement. A value
 * an active entry already blocks here (the application's, or a global one), compared as the
 * client API compares them (HWIDs exactly, IPs as normalised text), is skipped. The blacklist
 * has no unique index (entries are compared the same way by createBlacklistEntry), so two
 * imports of one file at the same moment could both add an entry; a re-run of one import
 * cannot, its done rows being marked in the same transaction. The client API reads the
 * blacklist on every login and registration, so no cache is told. Answers how many it created.
 */
export async function writeImportedBans(
  tx: Database,
  record: ImportRecord,
  rows: readonly KeyAuthBanRow[],
  now: Date,
): Promise<number> {
  const bans = rows.map((row) => ({ type: row.type, value: row.value }));
  const result = await tx.execute(sql`
    with inserted as (
      insert into blacklist_entries (owner_account_id, application_id, type, value, reason,
                                     is_active, created_at)
      select ${record.ownerAccountId}::uuid, ${record.applicationId}, b.type, b.value,
             ${IMPORTED_BAN_REASON}, true, ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(bans)}::jsonb) as b(type text, value text)
      where not exists (
        select 1 from blacklist_entries e
        where e.owner_account_id = ${record.ownerAccountId}::uuid
          and e.type = b.type
          and lower(e.value) = lower(b.value)
          and (b.type <> 'hwid' or e.value = b.value)
          and e.is_active
          and (e.application_id is null or e.application_id = ${record.applicationId}))
      returning 1
    )
    select count(*)::int as created from inserted`);
  return rowsOf<{ created: number }>(result)[0]?.created ?? 0;
}
