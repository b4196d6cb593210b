import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Page, PageRequest } from '@latchkey/contracts';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';

/**
 * One page of the end users of one of the owner's applications, newest first, optionally
 * only those whose username or e-mail contains the search (case-insensitively). The page's
 * ids are found first, from the (application_id, created_at, id) index alone, and only
 * their rows are read: a deep page skips index entries, not table rows. A search uses the
 * trigram indexes of username and e-mail (pg_trgm).
 */
export async function listAppUsers({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number } & PageRequest;
}): Promise<Page<AppUser>> {
  const application = await loadOwnedApplication({ ctx, input });
  const conditions: SQL[] = [eq(appUsers.applicationId, application.id)];
  if (input.search) {
    const pattern = containsPattern(input.search);
    conditions.push(or(ilike(appUsers.username, pattern), ilike(appUsers.email, pattern))!);
  }
  const where = and(...conditions);
  const order = [desc(appUsers.createdAt), desc(appUsers.id)];
  const pageIds = ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(where)
    .orderBy(...order)
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(appUsers)
      .where(inArray(appUsers.id, pageIds))
      .orderBy(...order),
    ctx.db.select({ value: count() }).from(appUsers).where(where),
  ]);
  return { rows, totalCount: total?.value ?? 0 };
}
