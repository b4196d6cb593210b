import { eq } from 'drizzle-orm';
import { ownerSessions } from '../../db/schema/index.ts';
import type { Context } from '../../http/request-context.ts';
import { hashToken } from '../../lib/tokens.ts';

/** Deletes the session server-side, so a copied cookie is useless after sign-out. */
export async function endOwnerSession({
  ctx,
  input,
}: {
  ctx: Context;
  input: { sessionToken: string };
}): Promise<void> {
  await ctx.db
    .delete(ownerSessions)
    .where(eq(ownerSessions.tokenHash, hashToken(input.sessionToken)));
}
