import { desc, eq } from 'drizzle-orm';
import type { ApiToken } from '@latchkey/contracts';
import { apiTokens } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { toApiTokenResponse } from './to-api-token-response.ts';

/** The owner's tokens, newest first. An account holds a handful, so the list is not paged. */
export async function listApiTokens({ ctx }: { ctx: OwnerContext }): Promise<ApiToken[]> {
  const rows = await ctx.db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.ownerAccountId, ctx.account.id))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map(toApiTokenResponse);
}
