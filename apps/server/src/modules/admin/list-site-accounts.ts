import { asc, count, ilike, or } from 'drizzle-orm';
import type { Page, PageRequest } from '@latchkey/contracts';
import { ownerAccounts, type OwnerAccount } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';

/** The search of /user-management: e-mail, first or last name, case-insensitively. */
export function siteAccountSearch(search: string | undefined) {
  if (!search) return undefined;
  const pattern = containsPattern(search);
  return or(
    ilike(ownerAccounts.email, pattern),
    ilike(ownerAccounts.firstName, pattern),
    ilike(ownerAccounts.lastName, pattern),
  );
}

/** One page of the site's accounts, oldest first (the site owner leads). */
export async function listSiteAccounts({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: PageRequest;
}): Promise<Page<OwnerAccount>> {
  const where = siteAccountSearch(input.search);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(ownerAccounts)
      .where(where)
      .orderBy(asc(ownerAccounts.createdAt), asc(ownerAccounts.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ value: count() }).from(ownerAccounts).where(where),
  ]);
  return { rows, totalCount: total?.value ?? 0 };
}
