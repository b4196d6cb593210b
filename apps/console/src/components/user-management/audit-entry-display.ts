import {
  bulkAppUserActionLabels,
  permissionCatalogue,
  type AuditAction,
  type AuditEntry,
} from '@latchkey/contracts';
import { roleLabels } from '@/lib/site-admin-access.ts';

export const auditActionLabels: Record<AuditAction, string> = {
  user_updated: 'Updated',
  user_deleted: 'Deleted',
  end_users_bulk_action: 'Bulk action on end users',
  api_token_created: 'API token created',
  api_token_revoked: 'API token revoked',
  management_write: 'Change through the management API',
};

type AuditedState = NonNullable<AuditEntry['before']>;

const activeLabel = (isActive: boolean) => (isActive ? 'Active' : 'Inactive');

function describeState(state: AuditedState): string {
  const permissions = state.permissions.map((permission) => permissionCatalogue[permission].label);
  return [
    `Role ${roleLabels[state.role]}`,
    activeLabel(state.isActive),
    permissions.length ? `Permissions: ${permissions.join(', ')}` : 'No permissions',
  ].join('; ');
}

/**
 * The before and after of one entry as readable lines: what changed for an update, the state
 * the account had for a deletion.
 */
export function describeAuditChange(
  entry: Pick<
    AuditEntry,
    'before' | 'after' | 'bulkAction' | 'apiToken' | 'managementWrite' | 'actorToken' | 'ipAddress'
  >,
): string[] {
  const { before, after, bulkAction, apiToken, managementWrite, actorToken } = entry;
  if (managementWrite) {
    const lines = [
      `${managementWrite.summary} (${managementWrite.path}, ${managementWrite.status})`,
    ];
    if (actorToken) {
      lines.push(
        `By token “${actorToken.name}” (${actorToken.prefix}…) from ${entry.ipAddress ?? 'an unknown address'}`,
      );
    }
    const changes = Object.entries(managementWrite.changes ?? {});
    if (changes.length) {
      lines.push(changes.map(([field, value]) => `${field}: ${JSON.stringify(value)}`).join('; '));
    }
    return lines;
  }
  if (apiToken) {
    const reach = apiToken.applicationIds
      ? `applications ${apiToken.applicationIds.map((id) => `#${id}`).join(', ')}`
      : 'every application';
    return [
      `Token “${apiToken.name}” (${apiToken.prefix}…)`,
      `Scopes: ${apiToken.scopes.join(', ')}; ${reach}`,
    ];
  }
  if (bulkAction) {
    const users = `${bulkAction.userCount} end user${bulkAction.userCount === 1 ? '' : 's'}`;
    return [
      `${bulkAppUserActionLabels[bulkAction.action]}: ${users} of application #${bulkAction.applicationId}`,
    ];
  }
  if (!before && !after) return [];
  if (!before) return [`Now: ${describeState(after!)}`];
  if (!after) return [`Was: ${describeState(before)}`];

  const lines: string[] = [];
  if (before.role !== after.role) {
    lines.push(`Role: ${roleLabels[before.role]} → ${roleLabels[after.role]}`);
  }
  if (before.isActive !== after.isActive) {
    lines.push(`Status: ${activeLabel(before.isActive)} → ${activeLabel(after.isActive)}`);
  }
  const granted = after.permissions.filter(
    (permission) => !before.permissions.includes(permission),
  );
  const withdrawn = before.permissions.filter(
    (permission) => !after.permissions.includes(permission),
  );
  const labels = (permissions: typeof granted) =>
    permissions.map((permission) => permissionCatalogue[permission].label).join(', ');
  if (granted.length) lines.push(`Granted: ${labels(granted)}`);
  if (withdrawn.length) lines.push(`Withdrawn: ${labels(withdrawn)}`);
  return lines.length ? lines : ['No change'];
}
