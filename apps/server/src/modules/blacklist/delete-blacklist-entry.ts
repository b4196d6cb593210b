import { and, eq } from 'drizzle-orm';
import { BLACKLIST_ENTRY_NOT_FOUND } from '@latchkey/contracts';
import { blacklistEntries } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import { recordBlacklistWrite } from './record-blacklist-write.ts';

/**
 * Removes one of the owner's entries, with its audit entry in the same transaction; the
 * blocked value can use the client API again at once.
 */
export async function deleteBlacklistEntry({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { entryId: number };
}): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(blacklistEntries)
      .where(
        and(
          eq(blacklistEntries.id, input.entryId),
          eq(blacklistEntries.ownerAccountId, ctx.account.id),
        ),
      )
      .returning();
    if (!row) return undefined;
    await recordBlacklistWrite({
      ctx: { ...ctx, db: tx },
      input: { action: 'blacklist_entry_deleted', entry: row },
    });
    return row;
  });
  if (!deleted) throw notFound(BLACKLIST_ENTRY_NOT_FOUND);
  ctx.log.info({ blacklistEntryId: deleted.id }, 'blacklist entry deleted');
}
