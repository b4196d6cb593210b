import { hasPermission, type CurrentUser } from '@latchkey/contracts';

/**
 * Who may edit the client samples: the owner, or a holder of `edit_code`. The one place the
 * console decides it; the server enforces the same rule on every save.
 */
export function canEditCode(user: CurrentUser | null): boolean {
  return user !== null && hasPermission(user.userPermissions, 'edit_code');
}
