import { and, eq, gt } from 'drizzle-orm';
import { ownerAccounts, ownerSessions, type OwnerAccount } from '../../db/schema/index.ts';
import type { Context } from '../../http/request-context.ts';
import { hashToken } from '../../lib/tokens.ts';

/** The active owner a session cookie belongs to, or null when the session is unknown or over. */
export async function findOwnerBySession({
  ctx,
  input,
}: {
  ctx: Context;
  input: { sessionToken: string };
}): Promise<OwnerAccount | null> {
  const [row] = await ctx.db
    .select({ account: ownerAccounts })
    .from(ownerSessions)
    .innerJoin(ownerAccounts, eq(ownerAccounts.id, ownerSessions.accountId))
    .where(
      and(
        eq(ownerSessions.tokenHash, hashToken(input.sessionToken)),
        gt(ownerSessions.expiresAt, ctx.clock.now()),
        eq(ownerAccounts.isActive, true),
      ),
    )
    .limit(1);
  return row?.account ?? null;
}
