import { and, eq } from 'drizzle-orm';
import { API_TOKEN_NOT_FOUND } from '@latchkey/contracts';
import { apiTokens } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import { recordApiTokenAuditEntry } from './record-api-token-audit-entry.ts';

/**
 * Revokes one of the owner's tokens by deleting it. Every instance looks a token up on each
 * call (no cache), so the next call anywhere is refused as soon as this commits.
 */
export async function revokeApiToken({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { tokenId: string };
}): Promise<void> {
  const revoked = await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, input.tokenId), eq(apiTokens.ownerAccountId, ctx.account.id)))
      .returning();
    if (!deleted) throw notFound(API_TOKEN_NOT_FOUND);
    await recordApiTokenAuditEntry({
      ctx: { ...ctx, db: tx },
      action: 'api_token_revoked',
      token: deleted,
    });
    return deleted;
  });
  ctx.log.info({ apiTokenId: revoked.id, prefix: revoked.prefix }, 'API token revoked');
}
