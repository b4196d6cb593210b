import type { AuditedApiToken } from '@latchkey/contracts';
import { auditEntries, type ApiTokenRow } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { auditActorColumns } from '../../audit/audit-actor-columns.ts';

/**
 * A token's creation or revocation in the audit trail, written in the caller's
 * transaction. A token is a credential of the site: administrators should see who can
 * automate what. The target is the owner's own account; the token is in `after`.
 */
export async function recordApiTokenAuditEntry({
  ctx,
  action,
  token,
}: {
  ctx: OwnerContext;
  action: 'api_token_created' | 'api_token_revoked';
  token: ApiTokenRow;
}): Promise<void> {
  const audited: AuditedApiToken = {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scopes: token.scopes,
    applicationIds: token.applicationIds,
  };
  await ctx.db.insert(auditEntries).values({
    ...auditActorColumns(ctx),
    action,
    targetAccountId: ctx.account.id,
    targetEmail: ctx.account.email,
    before: null,
    after: { ...audited },
    createdAt: ctx.clock.now(),
  });
}
