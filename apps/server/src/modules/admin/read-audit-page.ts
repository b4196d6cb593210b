import { count, desc, type SQL } from 'drizzle-orm';
import type { Page } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { auditEntries, type AuditEntry } from '../../db/schema/index.ts';

/** One page of the entries `where` selects, newest first, with their count: every trail's read. */
export async function readAuditPage(
  db: Database,
  where: SQL | undefined,
  page: { page: number; pageSize: number },
): Promise<Page<AuditEntry>> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ value: count() }).from(auditEntries).where(where),
  ]);
  return { rows, totalCount: total?.value ?? 0 };
}
