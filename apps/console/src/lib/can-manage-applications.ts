import { hasPermission, type CurrentUser } from '@latchkey/contracts';

/**
 * Who may change an application and what it holds (its users, keys, imports): the owner, or
 * manage_applications. The console hides those actions from everyone else; the server refuses
 * the same calls to them regardless.
 */
export function canManageApplications(user: CurrentUser | null): boolean {
  return user !== null && hasPermission(user.userPermissions, 'manage_applications');
}
