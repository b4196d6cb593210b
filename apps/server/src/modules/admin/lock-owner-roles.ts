import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';

/**
 * Serialises every decision that depends on who the owners are (the first sign-in becoming
 * the site owner, the last owner keeping the role) across transactions and instances: two
 * first sign-ins at once must not make two owners, and two owners demoting each other at
 * once must not leave none. Held until the surrounding transaction ends.
 */
export async function lockOwnerRoles(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(727001)`);
}
