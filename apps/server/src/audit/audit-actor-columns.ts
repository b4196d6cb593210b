import type { OwnerContext } from '../http/request-context.ts';

/**
 * Who acted, in the columns every audit entry has: the account, and the management API token
 * and address when the owner acted through one. Names are copied as they are now, since the
 * trail outlives the accounts and tokens it names.
 */
export function auditActorColumns(ctx: Pick<OwnerContext, 'account' | 'actor'>) {
  const { token, ipAddress } = ctx.actor;
  return {
    actorAccountId: ctx.account.id,
    actorEmail: ctx.account.email,
    actorTokenId: token?.id ?? null,
    actorTokenName: token?.name ?? null,
    actorTokenPrefix: token?.prefix ?? null,
    ipAddress,
  };
}
