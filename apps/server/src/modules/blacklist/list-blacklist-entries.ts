import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type {
  BlacklistEntry as BlacklistEntryResponse,
  BlacklistType,
  Page,
  PageRequest,
} from '@latchkey/contracts';
import { applications, blacklistEntries } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { toBlacklistEntryResponse } from './to-blacklist-entry-response.ts';

/**
 * One page of the owner's blacklist, active and inactive entries, newest first; optionally
 * of one type or state, and only entries whose value or reason contains the search (case-insensitively).
 * A page walks the (owner, created_at, id) index; a search uses the trigram indexes of value
 * and reason (pg_trgm).
 */
export async function listBlacklistEntries({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: PageRequest & { type?: BlacklistType | undefined; isActive?: boolean | undefined };
}): Promise<Page<BlacklistEntryResponse>> {
  const conditions: SQL[] = [eq(blacklistEntries.ownerAccountId, ctx.account.id)];
  if (input.type) conditions.push(eq(blacklistEntries.type, input.type));
  if (input.isActive !== undefined) conditions.push(eq(blacklistEntries.isActive, input.isActive));
  if (input.search) {
    const pattern = containsPattern(input.search);
    conditions.push(
      or(ilike(blacklistEntries.value, pattern), ilike(blacklistEntries.reason, pattern))!,
    );
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ entry: blacklistEntries, applicationName: applications.name })
      .from(blacklistEntries)
      .leftJoin(applications, eq(applications.id, blacklistEntries.applicationId))
      .where(where)
      .orderBy(desc(blacklistEntries.createdAt), desc(blacklistEntries.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    ctx.db.select({ value: count() }).from(blacklistEntries).where(where),
  ]);
  return {
    rows: rows.map((row) => toBlacklistEntryResponse(row.entry, row.applicationName)),
    totalCount: total?.value ?? 0,
  };
}
