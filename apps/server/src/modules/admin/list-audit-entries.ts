import { ilike, or } from 'drizzle-orm';
import type { Page, PageRequest } from '@latchkey/contracts';
import { auditEntries, type AuditEntry } from '../../db/schema/index.ts';
import { readAuditPage } from './read-audit-page.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';

/**
 * One page of the audit trail, newest first; with a search, the entries whose acting or
 * acted-on account's e-mail contains it (trigram indexes). Never an end user's name: the
 * administrators who read the trail do not search other environments' end users.
 */
export async function listAuditEntries({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: PageRequest;
}): Promise<Page<AuditEntry>> {
  const pattern = input.search ? containsPattern(input.search) : null;
  const where = pattern
    ? or(ilike(auditEntries.actorEmail, pattern), ilike(auditEntries.targetEmail, pattern))
    : undefined;
  return readAuditPage(ctx.db, where, input);
}
