import {
  auditedAccountStateSchema,
  auditedApiTokenSchema,
  auditedBulkActionSchema,
  auditedManagementWriteSchema,
  isOwnerWriteAction,
  type AuditEntry,
} from '@latchkey/contracts';
import type { AuditEntry as AuditEntryRow } from '../../db/schema/index.ts';

/** One entry of the trail as the admin API and the management API answer it. */
export function toAuditEntryResponse(entry: AuditEntryRow): AuditEntry {
  return {
    id: entry.id,
    actor: { id: entry.actorAccountId, email: entry.actorEmail },
    action: entry.action,
    target: { id: entry.targetAccountId, email: entry.targetEmail },
    ...auditedChangeOf(entry),
    ...(entry.actorTokenId
      ? {
          actorToken: {
            id: entry.actorTokenId,
            name: entry.actorTokenName ?? '',
            prefix: entry.actorTokenPrefix ?? '',
          },
        }
      : {}),
    ...(entry.ipAddress === null ? {} : { ipAddress: entry.ipAddress }),
    createdAt: entry.createdAt.toISOString(),
  };
}

/** An entry's change, in the shape its action records it. */
function auditedChangeOf(
  entry: AuditEntryRow,
): Pick<
  AuditEntry,
  'before' | 'after' | 'bulkAction' | 'apiToken' | 'managementWrite' | 'ownerWrite'
> {
  if (isOwnerWriteAction(entry.action)) {
    return {
      before: null,
      after: null,
      ownerWrite: {
        application:
          entry.applicationId === null
            ? null
            : { id: entry.applicationId, name: entry.applicationName },
        target: {
          kind: entry.targetKind ?? 'application',
          id: entry.targetId ?? '',
          label: entry.targetLabel,
        },
        change: entry.after ?? null,
      },
    };
  }
  switch (entry.action) {
    case 'end_users_bulk_action':
      return { before: null, after: null, bulkAction: auditedBulkActionSchema.parse(entry.after) };
    case 'management_write':
      return {
        before: null,
        after: null,
        managementWrite: auditedManagementWriteSchema.parse(entry.after),
      };
    case 'api_token_created':
    case 'api_token_revoked':
      return { before: null, after: null, apiToken: auditedApiTokenSchema.parse(entry.after) };
    default:
      return {
        before: entry.before ? auditedAccountStateSchema.parse(entry.before) : null,
        after: entry.after ? auditedAccountStateSchema.parse(entry.after) : null,
      };
  }
}
