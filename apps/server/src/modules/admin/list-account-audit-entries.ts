import { and, count, desc, eq } from 'drizzle-orm';
import type { AccountAuditQuery, Page } from '@latchkey/contracts';
import { auditEntries, type AuditEntry } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';

/**
 * One page of the changes the signed-in account made, newest first (in the console and
 * through its tokens), or only those in one application. Scoped by the actor's account in the
 * statement: an account never reads another's entries, nor what administrators did to it.
 */
export async function listAccountAuditEntries({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AccountAuditQuery;
}): Promise<Page<AuditEntry>> {
  const where = and(
    eq(auditEntries.actorAccountId, ctx.account.id),
    input.applicationId === undefined
      ? undefined
      : eq(auditEntries.applicationId, input.applicationId),
  );
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ value: count() }).from(auditEntries).where(where),
  ]);
  return { rows, totalCount: total?.value ?? 0 };
}
