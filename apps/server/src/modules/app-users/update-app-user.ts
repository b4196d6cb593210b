import type { UpdateAppUserInput } from '@latchkey/contracts';
import { sql } from 'drizzle-orm';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/password-hashing.ts';
import {
  noteDeviceEvents,
  type DeviceChangeContext,
  type WrittenDeviceEvents,
  setUserHwid,
} from '../devices/index.ts';
import type { AppUserIds } from '../../ownership/owned-app-user.ts';
import { updateOwnedAppUser } from './update-owned-app-user.ts';

/**
 * Edits an end user (the Edit User dialog). Absent fields stay as they are;
 * a null or empty hwid releases the user's devices, so the next login binds a new one, and
 * another hwid becomes their only device (set-user-hwid.ts), in the same transaction. A new
 * password ends every session the user has open (updateOwnedAppUser). Another address is
 * not confirmed: the confirmation of the old one is cleared with it.
 */
export async function updateAppUser({
  ctx,
  input,
}: {
  ctx: DeviceChangeContext;
  input: AppUserIds & { changes: UpdateAppUserInput };
}): Promise<AppUser> {
  const { password, hwid, ...changes } = input.changes;
  let deviceEvents: WrittenDeviceEvents | null = null;
  const user = await updateOwnedAppUser(
    ctx,
    input,
    {
      username: changes.username,
      email: changes.email,
      ...(changes.email === undefined
        ? {}
        : {
            // In an UPDATE, the columns named on the right are the row as it was.
            emailVerifiedAt: sql`case when lower(${appUsers.email}) = lower(${changes.email})
              then ${appUsers.emailVerifiedAt} end`,
          }),
      isActive: changes.isActive,
      isPaused: changes.isPaused,
      expiresAt: changes.expiresAt,
      ...(password === undefined ? {} : { passwordHash: await hashPassword(password) }),
    },
    {
      // Every field asked for, a new password as "[redacted]" (redactAuditedChange).
      audit: { action: 'end_user_updated', change: input.changes },
      alsoInTransaction:
        hwid === undefined
          ? undefined
          : async (tx, updated, now) => {
              const outcome = await setUserHwid(tx, updated, hwid, now);
              deviceEvents = outcome.events;
              return outcome.user;
            },
    },
  );
  if (deviceEvents) noteDeviceEvents(ctx, deviceEvents);
  return user;
}
