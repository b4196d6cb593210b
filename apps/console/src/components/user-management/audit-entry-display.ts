import {
  bulkAppUserActionLabels,
  permissionCatalogue,
  type AuditAction,
  type AuditEntry,
  type AuditTargetKind,
  type AuditedOwnerWrite,
} from '@latchkey/contracts';
import { roleLabels } from '@/lib/site-admin-access.ts';

export const auditActionLabels: Record<AuditAction, string> = {
  user_updated: 'Updated',
  user_deleted: 'Deleted',
  end_users_bulk_action: 'Bulk action on end users',
  api_token_created: 'API token created',
  api_token_revoked: 'API token revoked',
  management_write: 'Change through the management API',
  application_created: 'Application created',
  application_updated: 'Application changed',
  application_deleted: 'Application deleted',
  end_user_created: 'End user created',
  end_user_updated: 'End user edited',
  end_user_paused: 'End user paused',
  end_user_unpaused: 'End user unpaused',
  end_user_hwid_reset: 'HWID reset',
  end_user_devices_released: 'Devices released',
  seat_freed: 'Seat freed',
  end_user_password_reset_sent: 'Password reset link sent',
  end_user_email_verified: 'E-mail address marked verified',
  end_user_deleted: 'End user deleted',
  subscription_granted: 'Subscription granted',
  subscription_updated: 'Subscription changed',
  subscription_removed: 'Subscription removed',
  plan_created: 'Plan created',
  plan_updated: 'Plan changed',
  plan_deleted: 'Plan deleted',
  license_keys_generated: 'Licence keys generated',
  license_key_banned: 'Licence key banned',
  license_key_emailed: 'Licence key sent by e-mail',
  license_key_unbanned: 'Licence key unbanned',
  license_key_deleted: 'Licence key deleted',
  unused_license_keys_deleted: 'Unused licence keys deleted',
  webhook_created: 'Webhook created',
  webhook_updated: 'Webhook changed',
  webhook_deleted: 'Webhook deleted',
  blacklist_entry_created: 'Blacklist entry added',
  blacklist_entry_deleted: 'Blacklist entry removed',
  variable_created: 'Variable created',
  variable_updated: 'Variable changed',
  variable_deleted: 'Variable deleted',
  user_variable_set: 'End user variable set',
  user_variable_deleted: 'End user variable deleted',
  file_uploaded: 'File uploaded',
  file_deleted: 'File deleted',
  import_previewed: 'Import uploaded',
  import_started: 'Import started',
  webhook_delivery_retried: 'Webhook delivery retried',
  sample_saved: 'Sample saved',
  sample_reset: 'Sample reset',
  code_file_saved: 'Code file saved',
  code_file_restored: 'Code file version restored',
  mail_resent: 'Mail sent again',
  mail_template_saved: 'Mail template saved',
  mail_template_reset: 'Mail template reset',
  shop_connection_created: 'Shop connection created',
  shop_connection_updated: 'Shop connection updated',
  shop_connection_deleted: 'Shop connection deleted',
  shop_order_processed: 'Shop order processed',
};

/** Entries the badge shows in the danger colour: something was taken away. */
export const isRemovalAction = (action: AuditAction) =>
  action === 'user_deleted' || action.endsWith('_deleted') || action === 'license_key_banned';

const targetKindLabels: Record<AuditTargetKind, string> = {
  application: 'Application',
  end_user: 'End user',
  plan: 'Plan',
  license_key: 'Licence key',
  webhook: 'Webhook',
  blacklist_entry: 'Blacklist entry',
  variable: 'Variable',
  file: 'File',
  import: 'Import',
  webhook_delivery: 'Webhook delivery',
  mail_message: 'Mail',
  mail_template: 'Mail template',
  shop_connection: 'Shop connection',
  shop_order: 'Shop order',
  sample: 'Sample',
  code_file: 'Code file',
};

/**
 * Whom (or what) an entry is about: an account's e-mail, or for an owner write what it
 * touched, in its application (by the name it had then).
 */
export function describeAuditTarget(entry: Pick<AuditEntry, 'target' | 'ownerWrite'>): string {
  const { ownerWrite } = entry;
  if (!ownerWrite) return entry.target.email;
  const { target, application } = ownerWrite;
  const named = `${targetKindLabels[target.kind]} ${target.label === null ? `#${target.id}` : `“${target.label}”`}`;
  if (target.kind === 'application' || application === null) return named;
  return `${named} in ${application.name === null ? `application #${application.id}` : `“${application.name}”`}`;
}

/** A recorded value as one short piece of text (secrets arrive as "[redacted]"). */
function describeValue(value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return value.length ? value.map(String).join(', ') : 'none';
  }
  return JSON.stringify(value);
}

function describeOwnerWrite(ownerWrite: AuditedOwnerWrite): string[] {
  const fields = Object.entries(ownerWrite.change ?? {});
  return fields.map(([field, value]) => `${field}: ${describeValue(value)}`);
}

/** Who acted, beyond the account: the management API token and the address, when recorded. */
export function describeAuditActor(
  entry: Pick<AuditEntry, 'actorToken' | 'ipAddress'>,
): string | null {
  const { actorToken, ipAddress } = entry;
  if (actorToken) {
    return `By token “${actorToken.name}” (${actorToken.prefix}…) from ${ipAddress ?? 'an unknown address'}`;
  }
  return ipAddress ? `From ${ipAddress}` : null;
}

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
    'before' | 'after' | 'bulkAction' | 'apiToken' | 'managementWrite' | 'ownerWrite'
  >,
): string[] {
  const { before, after, bulkAction, apiToken, managementWrite, ownerWrite } = entry;
  if (ownerWrite) return describeOwnerWrite(ownerWrite);
  if (managementWrite) {
    const lines = [
      `${managementWrite.summary} (${managementWrite.path}, ${managementWrite.status})`,
    ];
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
