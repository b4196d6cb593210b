import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { MailMessage, MailStatus, Page, PageRequest } from '@latchkey/contracts';
import { mailMessages } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';
import { toMailMessageResponse } from './to-mail-message-response.ts';

/**
 * One page of an application's mail log, newest first; optionally one status, and only
 * messages whose address or subject contains the search. The rows are selected through the
 * owner's application (a subquery), so the statement cannot return another owner's mail.
 */
export async function listMailMessages({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: PageRequest & { applicationId: number; status?: MailStatus | undefined };
}): Promise<Page<MailMessage>> {
  await loadOwnedApplication({ ctx, input });
  const conditions: SQL[] = [
    inArray(mailMessages.applicationId, ownedApplicationIds(ctx, input.applicationId)),
  ];
  if (input.status) conditions.push(eq(mailMessages.status, input.status));
  if (input.search) {
    const pattern = containsPattern(input.search);
    conditions.push(
      or(ilike(mailMessages.recipient, pattern), ilike(mailMessages.subject, pattern))!,
    );
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(mailMessages)
      .where(where)
      .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ value: count() }).from(mailMessages).where(where),
  ]);
  return { rows: rows.map(toMailMessageResponse), totalCount: total?.value ?? 0 };
}
