import { hasPermission, type CurrentUser } from '@latchkey/contracts';

/**
 * Who may edit the client samples (issue 13, spec doc 2 §5-§6: the owner or `edit_code`).
 * The one place the console decides it; the server enforces the same rule on every save.
 */
export function canEditCode(user: CurrentUser | null): boolean {
  return user !== null && hasPermission(user.userPermissions, 'edit_code');
}
