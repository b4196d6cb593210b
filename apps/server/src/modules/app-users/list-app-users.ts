import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Page, PageRequest } from '@latchkey/contracts';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';

/**
 * One page of the end users of one of the owner's applications, newest first, optionally
 * only those whose username or e-mail contains the search (case-insensitively). The
 * ordering walks the (application_id, created_at) index, so a page costs its own rows
 * plus the offset. A search has no index to use (a trigram index is not available on every
 * PostgreSQL we run on): it scans this one application's users, never another's.
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
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(appUsers)
      .where(where)
      .orderBy(desc(appUsers.createdAt), desc(appUsers.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ value: count() }).from(appUsers).where(where),
  ]);
  return { rows, totalCount: total?.value ?? 0 };
}
