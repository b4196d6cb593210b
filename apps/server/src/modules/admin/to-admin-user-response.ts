import type { AdminUser } from '@latchkey/contracts';
import type { OwnerAccount } from '../../db/schema/index.ts';

export function toAdminUserResponse(account: OwnerAccount): AdminUser {
  return {
    id: account.id,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    role: account.role,
    permissions: account.permissions,
    isActive: account.isActive,
    createdAt: account.createdAt.toISOString(),
    lastSignInAt: account.lastSignInAt?.toISOString() ?? null,
  };
}
