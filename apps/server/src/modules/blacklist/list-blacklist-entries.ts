import { desc, eq } from 'drizzle-orm';
import type { BlacklistEntry as BlacklistEntryResponse } from '@latchkey/contracts';
import { applications, blacklistEntries } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { toBlacklistEntryResponse } from './to-blacklist-entry-response.ts';

/** The owner's blacklist, active and inactive entries, newest first. */
export async function listBlacklistEntries({
  ctx,
}: {
  ctx: OwnerContext;
}): Promise<BlacklistEntryResponse[]> {
  const rows = await ctx.db
    .select({ entry: blacklistEntries, applicationName: applications.name })
    .from(blacklistEntries)
    .leftJoin(applications, eq(applications.id, blacklistEntries.applicationId))
    .where(eq(blacklistEntries.ownerAccountId, ctx.account.id))
    .orderBy(desc(blacklistEntries.createdAt), desc(blacklistEntries.id));
  return rows.map((row) => toBlacklistEntryResponse(row.entry, row.applicationName));
}
