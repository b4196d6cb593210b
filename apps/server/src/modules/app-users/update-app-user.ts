import type { UpdateAppUserInput } from '@latchkey/contracts';
import type { AppUser } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/password-hashing.ts';
import {
  updateOwnedAppUser,
  type AppUserIds,
  type EndUserChangeContext,
} from './owned-app-user.ts';

/**
 * Edits an end user (spec doc 1 §2, Edit User dialog). Absent fields stay as they are;
 * a null or empty hwid resets it, so the next login binds a new device.
 */
export async function updateAppUser({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds & { changes: UpdateAppUserInput };
}): Promise<AppUser> {
  const { password, ...changes } = input.changes;
  return updateOwnedAppUser(ctx, input, {
    username: changes.username,
    email: changes.email,
    isActive: changes.isActive,
    isPaused: changes.isPaused,
    expiresAt: changes.expiresAt,
    hwid: changes.hwid,
    ...(password === undefined ? {} : { passwordHash: await hashPassword(password) }),
  });
}
