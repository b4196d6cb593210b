import { count, desc } from 'drizzle-orm';
import type { Page, PageRequest } from '@latchkey/contracts';
import { auditEntries, type AuditEntry } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';

/** One page of the audit trail, newest first. */
export async function listAuditEntries({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: Omit<PageRequest, 'search'>;
}): Promise<Page<AuditEntry>> {
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(auditEntries)
      .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ value: count() }).from(auditEntries),
  ]);
  return { rows, totalCount: total?.value ?? 0 };
}
