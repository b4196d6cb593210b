import { hasPermission, type CurrentUser } from '@latchkey/contracts';

/**
 * Who may see and use the API Tokens page: the owner, or a holder of manage_api_tokens. The
 * one place the console decides it; the server refuses the same calls to everyone else.
 */
export function canManageApiTokens(user: CurrentUser | null): boolean {
  return user !== null && hasPermission(user.userPermissions, 'manage_api_tokens');
}
