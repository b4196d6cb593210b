import { sql } from 'drizzle-orm';
import { variableLimits } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { ImportRecord } from '../../db/schema/index.ts';
import type { KeyAuthUserVariableRow } from './keyauth-application-export.ts';

/**
 * One batch of KeyAuth users' variables as end users' variables. A variable of a user the
 * application does not have (import the users first), a name the user already holds (never
 * overwritten), and one past the most an end user may hold are skipped. The users' rows are
 * locked first (FOR NO KEY UPDATE), as the variables module's own write does, so a program
 * writing a new variable at the same moment cannot take the count past the limit. Answers how
 * many it created.
 */
export async function writeImportedUserVariables(
  tx: Database,
  record: ImportRecord,
  rows: readonly KeyAuthUserVariableRow[],
  now: Date,
): Promise<number> {
  const variables = rows.map((row) => ({
    row_number: row.rowNumber,
    username: row.username,
    name: row.name,
    value: row.value,
    read_only: row.isReadOnly,
  }));
  const document = JSON.stringify(variables);
  await tx.execute(sql`
    select u.id from app_users u
    where u.application_id = ${record.applicationId}
      and u.username in (select r.username from jsonb_to_recordset(${document}::jsonb)
                         as r(username text))
    order by u.id
    for no key update`);
  const at = now.toISOString();
  const result = await tx.execute(sql`
    with wanted as (
      select u.id as app_user_id, r.name, r.value, r.read_only,
             row_number() over (partition by u.id order by r.row_number) as nth
      from jsonb_to_recordset(${document}::jsonb) as r(
        row_number int, username text, name text, value text, read_only boolean)
      join app_users u on u.application_id = ${record.applicationId} and u.username = r.username
      where not exists (select 1 from app_user_variables v
                        where v.app_user_id = u.id and v.name = r.name)
    ),
    held as (
      select v.app_user_id, count(*)::int as count from app_user_variables v
      where v.app_user_id in (select app_user_id from wanted)
      group by v.app_user_id
    ),
    inserted as (
      insert into app_user_variables (app_user_id, application_id, name, value, read_only,
                                      created_at, updated_at)
      select w.app_user_id, ${record.applicationId}, w.name, w.value, w.read_only,
             ${at}::timestamptz, ${at}::timestamptz
      from wanted w left join held h on h.app_user_id = w.app_user_id
      where coalesce(h.count, 0) + w.nth <= ${variableLimits.userVariablesPerUser}
      on conflict do nothing
      returning 1
    )
    select count(*)::int as created from inserted`);
  return rowsOf<{ created: number }>(result)[0]?.created ?? 0;
}
