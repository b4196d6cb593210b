import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { ImportRecord } from '../../db/schema/index.ts';
import type { KeyAuthVariableRow } from './keyauth-application-export.ts';

/**
 * One batch of KeyAuth variables as the application's variables, in one statement: a name the
 * application already has is skipped (ON CONFLICT DO NOTHING on its unique name), never
 * overwritten. KeyAuth's `authed` becomes `requires_session`. The client API reads variables
 * from the table on every call, so no cache is told. Answers how many it created.
 */
export async function writeImportedVariables(
  tx: Database,
  record: ImportRecord,
  rows: readonly KeyAuthVariableRow[],
  now: Date,
): Promise<number> {
  const variables = rows.map((row) => ({
    name: row.name,
    value: row.value,
    requires_session: row.requiresSession,
  }));
  const at = now.toISOString();
  const result = await tx.execute(sql`
    with inserted as (
      insert into app_variables (application_id, name, value, requires_session, created_at,
                                 updated_at)
      select ${record.applicationId}, v.name, v.value, v.requires_session, ${at}::timestamptz,
             ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(variables)}::jsonb) as v(
        name text, value text, requires_session boolean)
      on conflict do nothing
      returning 1
    )
    select count(*)::int as created from inserted`);
  return rowsOf<{ created: number }>(result)[0]?.created ?? 0;
}
