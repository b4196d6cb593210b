import type { AppUserListRow, AppUser as AppUserResponse } from '@latchkey/contracts';
import type { AppUser } from '../../db/schema/index.ts';
import { activeEntitlements } from '../subscriptions/index.ts';
import type { ListedAppUser } from './list-app-users.ts';

/** The owner-API view of an end user. The password hash is deliberately not copied. */
export function toAppUserResponse(user: AppUser): AppUserResponse {
  return {
    id: user.id,
    applicationId: user.applicationId,
    username: user.username,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    isActive: user.isActive,
    isPaused: user.isPaused,
    expiresAt: user.expiresAt?.toISOString() ?? null,
    hwid: user.hwid,
    deviceCount: user.deviceCount,
    loginAttempts: user.loginAttempts,
    lastLogin: user.lastLogin?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** A row of the owner-API list of end users: the user, what they hold and may bind. */
export function toAppUserListRow(user: ListedAppUser): AppUserListRow {
  return {
    ...toAppUserResponse(user),
    subscriptions: user.subscriptions,
    entitlements: activeEntitlements(user.subscriptions),
    deviceLimit: user.deviceLimit,
  };
}
