import { asc, count, sql } from 'drizzle-orm';
import type { Page, PageRequest } from '@latchkey/contracts';
import { ownerAccounts, type OwnerAccount } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { siteAccountSearch } from './list-site-accounts.ts';

export interface SiteOverviewRow {
  account: OwnerAccount;
  applicationCount: number;
  endUserCount: number;
  apiRequestCount: number;
  lastActivityAt: Date | null;
}

/**
 * Per account: how many applications and end users, how many API requests, when last
 * active (view_all_data). Aggregates only: no row of another environment leaves this query.
 */
export async function getSiteOverview({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: PageRequest;
}): Promise<Page<SiteOverviewRow>> {
  const where = siteAccountSearch(input.search);
  // Column names spelled out: inside a subquery drizzle leaves them unqualified, and
  // "id" would be ambiguous between the joined tables.
  const ownedBy = sql`a.owner_account_id = ${ownerAccounts.id}`;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        account: ownerAccounts,
        applicationCount: sql<number>`(select count(*)::int from applications a where ${ownedBy})`,
        // The running totals of schema/app-user-counts.ts: a count of app_users read every
        // end user of every account on the page.
        endUserCount: sql<number>`(select coalesce(sum(c.user_count), 0)::int from app_user_counts c join applications a on a.id = c.application_id where ${ownedBy})`,
        apiRequestCount: sql<number>`(select coalesce(sum(a.total_api_requests), 0)::float8 from applications a where ${ownedBy})`,
        lastActivityAt: sql<
          Date | string | null
        >`(select max(a.last_activity_at) from applications a where ${ownedBy})`,
      })
      .from(ownerAccounts)
      .where(where)
      .orderBy(asc(ownerAccounts.createdAt), asc(ownerAccounts.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ value: count() }).from(ownerAccounts).where(where),
  ]);
  return {
    rows: rows.map((row) => ({
      ...row,
      apiRequestCount: Number(row.apiRequestCount),
      lastActivityAt: row.lastActivityAt === null ? null : new Date(row.lastActivityAt),
    })),
    totalCount: total?.value ?? 0,
  };
}
