import { z } from 'zod';

/** The four roles, highest first. */
export const roleSchema = z.enum(['owner', 'admin', 'moderator', 'user']);
export type Role = z.infer<typeof roleSchema>;

export const roleDescriptions: Record<Role, string> = {
  owner: 'Full system access and control',
  admin: 'Administrative privileges',
  moderator: 'Limited administrative access',
  user: 'Standard user access',
};

/** The permissions, in the order the console lists them. */
export const permissionSchema = z.enum([
  'edit_code',
  'manage_users',
  'manage_applications',
  'view_all_data',
  'delete_applications',
  'manage_permissions',
  'access_admin_panel',
  // Tokens of the management API; on by default for owners and admins.
  'manage_api_tokens',
]);
export type Permission = z.infer<typeof permissionSchema>;

export const permissionCatalogue: Record<Permission, { label: string; description: string }> = {
  edit_code: { label: 'Edit Code', description: 'Access to code editor and system files' },
  manage_users: { label: 'Manage Users', description: 'Create, edit and manage user accounts' },
  manage_applications: {
    label: 'Manage Applications',
    description: 'Create and configure applications',
  },
  view_all_data: { label: 'View All Data', description: 'Access to all system data and analytics' },
  delete_applications: {
    label: 'Delete Applications',
    description: 'Permission to delete applications',
  },
  manage_permissions: {
    label: 'Manage Permissions',
    description: 'Modify user roles and permissions',
  },
  access_admin_panel: {
    label: 'Access Admin Panel',
    description: 'Access to the administrative interface',
  },
  manage_api_tokens: {
    label: 'Manage API Tokens',
    description: 'Create and revoke tokens of the management API',
  },
};

/**
 * What a role starts with when an account is given it (API tokens are on by default for
 * admins). The owner holds every permission by role and needs no list.
 */
export const roleDefaultPermissions: Record<Role, readonly Permission[]> = {
  owner: [],
  admin: ['manage_api_tokens'],
  moderator: [],
  user: [],
};

export const userPermissionsSchema = z.object({
  role: roleSchema,
  permissions: z.array(permissionSchema),
});
export type UserPermissions = z.infer<typeof userPermissionsSchema>;

/** The owner implicitly holds every permission; other roles need it granted explicitly. */
export function hasPermission(userPermissions: UserPermissions, permission: Permission): boolean {
  return userPermissions.role === 'owner' || userPermissions.permissions.includes(permission);
}
