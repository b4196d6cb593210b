import { SEARCH_COUNT_LIMIT, type PageRequest } from '@latchkey/contracts';
import { count, desc, sql, type Subquery } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

/**
 * The ids of a search's page, newest first, and how many rows match in all, when at most
 * SEARCH_COUNT_LIMIT do; null when more do (the caller then walks its table newest first,
 * which finds a page of a dense match soonest). `times` are the ids' created_at as the
 * database prints them (to the microsecond, which a Date would round), to find a row of a
 * table partitioned by time in its own partition.
 *
 * `matchesUpTo(limit)` selects up to `limit` matching rows' `id` and `createdAt`, with no
 * order, as a subquery: one statement takes up to one more than SEARCH_COUNT_LIMIT of them,
 * counts them with a window and cuts the page, so the search is read once rather than for a
 * count and again for the page. The limit on the
 * matches, not the window, keeps the plan honest. Asked for the newest rows of a search,
 * PostgreSQL walks the created_at index backwards through the whole table whenever it expects
 * enough matches to fill a page soon, and a window over that walk does not stop it: 1.26 s for
 * a search matching 111 of a million users, against 27 ms from the trigram indexes, after
 * statistics that put the matches in the thousands. The rows of a limit with no order come
 * from the cheapest way to find all of them unless more than the limit are expected.
 */
export async function fewMatchesPage<Id>(
  db: Database,
  matchesUpTo: (limit: number) => Subquery,
  page: PageRequest,
): Promise<{ ids: Id[]; times: string[]; matched: number } | null> {
  const found = matchesUpTo(SEARCH_COUNT_LIMIT + 1);
  // Every caller's subquery selects these two; the type of its selection is its own.
  const fields = found as unknown as { id: PgColumn; createdAt: PgColumn };
  const rows = await db
    .select({
      id: fields.id,
      time: sql<string>`${fields.createdAt}::text`,
      matched: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(found)
    .orderBy(desc(fields.createdAt), desc(fields.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  // Past the last page no row carries the count: count on its own.
  const matched =
    rows[0]?.matched ??
    (page.page > 1 ? (await db.select({ value: count() }).from(found))[0]!.value : 0);
  if (matched > SEARCH_COUNT_LIMIT) return null;
  return {
    ids: rows.map((row) => row.id as Id),
    times: rows.map((row) => row.time),
    matched,
  };
}
