import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

type Executor = Pick<Database, 'execute'>;

/**
 * Brings `app_users.hwid` (the first bound device's, the seed's one HWID) and `device_count`
 * up to date with the user's devices. Every change of app_user_devices calls it in the same
 * transaction, so the lists read the summary without a join and never disagree with it.
 */
export async function refreshDeviceSummary(tx: Executor, appUserId: string): Promise<void> {
  await tx.execute(sql`
    update app_users set
      hwid = (select d.hwid from app_user_devices d where d.app_user_id = ${appUserId}
              order by d.first_seen_at, d.id limit 1),
      device_count = (select count(*) from app_user_devices d where d.app_user_id = ${appUserId})
    where id = ${appUserId}`);
}
