import {
  adminMessages,
  hasPermission,
  permissionSchema,
  roleDefaultPermissions,
  roleSchema,
  type AdminUser,
  type CurrentUser,
  type Permission,
  type Role,
  type UserPermissions,
} from '@latchkey/contracts';

/**
 * What the signed-in account may see and do on /user-management. Hiding is a convenience: the
 * server checks every call again and its refusals become toasts.
 */
export interface SiteAdminAccess {
  /** The account list, its edits and deletions (owner or manage_users). */
  canManageUsers: boolean;
  /** Roles and permissions in the Edit dialog (owner or manage_permissions). */
  canManagePermissions: boolean;
  /** The site overview (owner or view_all_data). */
  canViewOverview: boolean;
  /** The audit trail (owner or access_admin_panel). */
  canViewAuditTrail: boolean;
}

export function getSiteAdminAccess(user: CurrentUser | null): SiteAdminAccess {
  const can = (permission: Permission) =>
    user !== null && hasPermission(user.userPermissions, permission);
  return {
    canManageUsers: can('manage_users'),
    canManagePermissions: can('manage_permissions'),
    canViewOverview: can('view_all_data'),
    canViewAuditTrail: can('access_admin_panel'),
  };
}

/** The permissions that show /user-management in the header: any part of the page is theirs. */
export const USER_MANAGEMENT_PERMISSIONS: readonly Permission[] = [
  'manage_users',
  'access_admin_panel',
  'view_all_data',
];

export const roleLabels: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  moderator: 'Moderator',
  user: 'User',
};

const roleRank: Record<Role, number> = { owner: 3, admin: 2, moderator: 1, user: 0 };

/** The roles the Edit dialog offers: nobody grants a role above their own. */
export function isRoleAssignable(actor: UserPermissions, role: Role): boolean {
  return actor.role === 'owner' || roleRank[role] <= roleRank[actor.role];
}

/** Nobody grants or withdraws a permission they do not hold themselves. */
export function isPermissionAssignable(actor: UserPermissions, permission: Permission): boolean {
  return hasPermission(actor, permission);
}

export const allRoles = roleSchema.options;
export const allPermissions = permissionSchema.options;

/**
 * The permissions after the Edit dialog's role changes to `role`: the role's defaults (such as
 * Manage API Tokens for an admin) are ticked, except those the actor may not grant. Nothing is
 * taken away, and a default can still be unticked before saving.
 */
export function withRoleDefaults(
  permissions: readonly Permission[],
  role: Role,
  actor: UserPermissions,
): Permission[] {
  const granted = new Set<Permission>(permissions);
  for (const permission of roleDefaultPermissions[role]) {
    if (isPermissionAssignable(actor, permission)) granted.add(permission);
  }
  return allPermissions.filter((permission) => granted.has(permission));
}

/** The permissions an account actually holds: an owner holds all of them by role. */
export function getEffectivePermissions(account: UserPermissions): readonly Permission[] {
  return account.role === 'owner' ? allPermissions : account.permissions;
}

export function formatPermissionCount(account: UserPermissions): string {
  const count = getEffectivePermissions(account).length;
  return `${count} ${count === 1 ? 'permission' : 'permissions'}`;
}

/** A card shows the full name, or the e-mail when there is none. */
export function getAccountDisplayName(account: {
  email: string;
  firstName: string | null;
  lastName: string | null;
}): string {
  const fullName = [account.firstName, account.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return fullName || account.email;
}

/** Only an owner may edit an owner. */
export function canEditAccount(actor: UserPermissions, target: AdminUser): boolean {
  return target.role !== 'owner' || actor.role === 'owner';
}

/** The delete button appears for accounts that are neither yours nor an owner's. */
export function canDeleteAccount(actorId: string, target: AdminUser): boolean {
  return target.id !== actorId && target.role !== 'owner';
}

/** The toast that refuses a deletion before any request, or null when it may be asked for. */
export function getDeletionRefusal(
  actorId: string,
  target: AdminUser,
): { title: string; description: string } | null {
  if (target.id === actorId) {
    return { title: 'Cannot Delete', description: adminMessages.cannotDeleteSelf };
  }
  return null;
}
