import type { CurrentUser } from '@latchkey/contracts';
import type { OwnerAccount } from '../../db/schema/index.ts';

export function toCurrentUser(account: OwnerAccount): CurrentUser {
  return {
    id: account.id,
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    userPermissions: { role: account.role, permissions: account.permissions },
  };
}
