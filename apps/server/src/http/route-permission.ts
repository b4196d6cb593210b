import {
  hasPermission,
  permissionCatalogue,
  type Permission,
  type UserPermissions,
} from '@latchkey/contracts';

/**
 * What an owner route requires (its definition's `permission`), enforced by the owner guard.
 * 'signed_in': any active account (reads of one's own environment); a list: any one of those
 * permissions (the verb then checks the details, e.g. PATCH /api/admin/users).
 */
export type RoutePermission = Permission | 'signed_in' | readonly Permission[];

export function isRoutePermitted(
  userPermissions: UserPermissions,
  required: RoutePermission,
): boolean {
  if (required === 'signed_in') return true;
  const anyOf: readonly Permission[] = typeof required === 'string' ? [required] : required;
  return anyOf.some((permission) => hasPermission(userPermissions, permission));
}

/** The 403's message: names the permission by its label, as the console shows it. */
export function missingPermissionMessage(required: Exclude<RoutePermission, 'signed_in'>): string {
  const anyOf: readonly Permission[] = typeof required === 'string' ? [required] : required;
  const labels = anyOf.map((permission) => `"${permissionCatalogue[permission].label}"`);
  return `You need the ${labels.join(' or ')} permission to do this.`;
}
