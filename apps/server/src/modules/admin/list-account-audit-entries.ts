import { and, eq } from 'drizzle-orm';
import type { AccountAuditQuery, Page } from '@latchkey/contracts';
import { auditEntries, type AuditEntry } from '../../db/schema/index.ts';
import { readAuditPage } from './read-audit-page.ts';
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
  return readAuditPage(ctx.db, where, input);
}
