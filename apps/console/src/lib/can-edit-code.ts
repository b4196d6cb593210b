import type { CurrentUser } from '@latchkey/contracts';

/**
 * Who may edit the client samples (issue 13: the owner or `edit_code`; until roles exist, the
 * owner). Every signed-in account owns its own applications and samples, so today that is
 * anyone signed in; this is the one place the console decides it, for the roles work to
 * narrow (e.g. to `hasPermission(user.userPermissions, 'edit_code')`). The server enforces its
 * own rule on every save.
 */
export function canEditCode(user: CurrentUser | null): boolean {
  return user !== null;
}
