import { SEARCH_COUNT_LIMIT } from '@latchkey/contracts';
import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

/**
 * How many rows of `table` match `where`, counting no further than SEARCH_COUNT_LIMIT: a
 * search that matches most of a large table is answered after that many rows (PostgreSQL
 * stops the scan there) instead of after all of them. `isCapped` when more matched.
 */
export async function countCapped(
  db: Database,
  table: PgTable,
  where: SQL,
): Promise<{ count: number; isCapped: boolean }> {
  const matches = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(SEARCH_COUNT_LIMIT + 1)
    .as('matches');
  const [row] = await db.select({ value: count() }).from(matches);
  const matched = row?.value ?? 0;
  return matched > SEARCH_COUNT_LIMIT
    ? { count: SEARCH_COUNT_LIMIT, isCapped: true }
    : { count: matched, isCapped: false };
}
