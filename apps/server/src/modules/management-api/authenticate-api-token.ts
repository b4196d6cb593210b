import { eq, sql } from 'drizzle-orm';
import { hasPermission, managementMessages, permissionCatalogue } from '@latchkey/contracts';
import {
  apiTokens,
  ownerAccounts,
  type ApiTokenRow,
  type OwnerAccount,
} from '../../db/schema/index.ts';
import type { Context } from '../../http/request-context.ts';
import { isWellFormedApiToken } from '../../lib/api-token-format.ts';
import { AppError } from '../../lib/errors.ts';
import { isAddressAllowed } from '../../lib/ip-allowlist.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';

/** Who a management call acts as: the token, and the account that created it, as it is now. */
export interface ApiTokenCaller {
  token: ApiTokenRow;
  account: OwnerAccount;
}

export const tokenInvalid = (message: string = managementMessages.tokenInvalid) =>
  new AppError('TOKEN_INVALID', message);

/**
 * The trust boundary of the management API. The token is looked up by its keyed digest on
 * every call, never cached, so a revocation (a deleted row) or a deactivated creator is
 * refused by every instance on the next call. Unknown, revoked and expired tokens are one
 * answer. A token never exceeds its creator: the creator must still hold Manage API Tokens
 * (each route then also checks the permission its console twin needs).
 */
export async function authenticateApiToken({
  ctx,
  input,
}: {
  ctx: Context & { serverSecret: string };
  input: { token: string; ipAddress: string };
}): Promise<ApiTokenCaller> {
  // A mistyped or truncated token costs no database round trip.
  if (!isWellFormedApiToken(input.token)) throw tokenInvalid();
  const [row] = await ctx.db
    .select({ token: apiTokens, account: ownerAccounts })
    .from(apiTokens)
    .innerJoin(ownerAccounts, eq(ownerAccounts.id, apiTokens.ownerAccountId))
    .where(eq(apiTokens.tokenDigest, keyedDigest(input.token, 'api-token', ctx.serverSecret)))
    .limit(1);
  const now = ctx.clock.now();
  if (!row || !row.account.isActive) throw tokenInvalid();
  if (row.token.expiresAt && row.token.expiresAt.getTime() <= now.getTime()) throw tokenInvalid();
  if (row.token.allowedIps && !isAddressAllowed(input.ipAddress, row.token.allowedIps)) {
    throw new AppError('IP_NOT_ALLOWED', managementMessages.ipNotAllowed(input.ipAddress));
  }
  const creator = { role: row.account.role, permissions: row.account.permissions };
  if (!hasPermission(creator, 'manage_api_tokens')) {
    throw new AppError(
      'PERMISSION_MISSING',
      managementMessages.permissionMissing(permissionCatalogue.manage_api_tokens.label),
      { permission: 'manage_api_tokens' },
    );
  }
  return row;
}

/**
 * Records an accepted call: when and from where the token was last used (the API Tokens page
 * shows both), and one more read or write in its counters.
 */
export async function stampApiTokenUse({
  ctx,
  input,
}: {
  ctx: Context;
  input: { tokenId: string; ipAddress: string; isWrite: boolean };
}): Promise<void> {
  await ctx.db
    .update(apiTokens)
    .set({
      lastUsedAt: ctx.clock.now(),
      lastUsedIp: input.ipAddress,
      ...(input.isWrite
        ? { writeCount: sql`${apiTokens.writeCount} + 1` }
        : { readCount: sql`${apiTokens.readCount} + 1` }),
    })
    .where(eq(apiTokens.id, input.tokenId));
}
