import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  BLACKLIST_DUPLICATE,
  type BlacklistEntry as BlacklistEntryResponse,
  type CreateBlacklistEntryInput,
} from '@latchkey/contracts';
import { blacklistEntries } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { AppError } from '../../lib/errors.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { normalizeBlacklistIp } from './normalize-blacklist-ip.ts';
import { recordBlacklistWrite } from './record-blacklist-write.ts';
import { toBlacklistEntryResponse } from './to-blacklist-entry-response.ts';

/**
 * Blocks an IP (or a CIDR range, stored as its network address), username, e-mail or HWID
 * for one of the owner's applications or (no applicationId) all of them. Takes effect on the next client request: the client API reads
 * the blacklist from the database on every login and registration. The audit entry is
 * written in the same transaction.
 */
export async function createBlacklistEntry({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: CreateBlacklistEntryInput;
}): Promise<BlacklistEntryResponse> {
  // Another owner's application is indistinguishable from a missing one (404).
  const application =
    input.applicationId === null
      ? null
      : await loadOwnedApplication({ ctx, input: { applicationId: input.applicationId } });
  const value = input.type === 'ip' ? await normalizeBlacklistIp(ctx.db, input.value) : input.value;

  const [duplicate] = await ctx.db
    .select({ id: blacklistEntries.id })
    .from(blacklistEntries)
    .where(
      and(
        eq(blacklistEntries.ownerAccountId, ctx.account.id),
        eq(blacklistEntries.type, input.type),
        // The same comparison the client API makes: HWIDs exactly, the rest case-insensitively.
        eq(sql`lower(${blacklistEntries.value})`, value.toLowerCase()),
        input.type === 'hwid' ? eq(blacklistEntries.value, value) : undefined,
        eq(blacklistEntries.isActive, true),
        application === null
          ? isNull(blacklistEntries.applicationId)
          : eq(blacklistEntries.applicationId, application.id),
      ),
    )
    .limit(1);
  if (duplicate) throw new AppError('CONFLICT', BLACKLIST_DUPLICATE);

  const entry = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(blacklistEntries)
      .values({
        ownerAccountId: ctx.account.id,
        applicationId: application?.id ?? null,
        type: input.type,
        value,
        reason: input.reason,
        isActive: true,
        createdAt: ctx.clock.now(),
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    await recordBlacklistWrite({
      ctx: { ...ctx, db: tx },
      input: { action: 'blacklist_entry_created', entry: created },
    });
    return created;
  });
  ctx.log.info({ blacklistEntryId: entry.id, type: entry.type }, 'blacklist entry created');
  return toBlacklistEntryResponse(entry, application?.name ?? null);
}
