import type { CreateAppUserInput } from '@latchkey/contracts';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/password-hashing.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { noteDeviceEvents, type DeviceChangeContext, setUserHwid } from '../devices/index.ts';
import { toAppUserWriteError } from './to-app-user-write-error.ts';

/**
 * A new end user of one of the owner's applications; the username is unique per application.
 * A HWID given here is the user's first device, added in the same transaction,
 * as is the audit entry (its password redacted).
 */
export async function createAppUser({
  ctx,
  input,
}: {
  ctx: DeviceChangeContext;
  input: { applicationId: number; user: CreateAppUserInput };
}): Promise<AppUser> {
  // Ownership first: no hashing work for an application the owner cannot see.
  const application = await loadOwnedApplication({ ctx, input });
  const { user } = input;
  const passwordHash = await hashPassword(user.password);
  const now = ctx.clock.now();
  try {
    const outcome = await ctx.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(appUsers)
        .values({
          applicationId: application.id,
          username: user.username,
          email: user.email,
          passwordHash,
          expiresAt: user.expiresAt,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!created) throw new Error('insert returned no row');
      const outcome =
        user.hwid === null
          ? { user: created, events: null }
          : await setUserHwid(tx, created, user.hwid, now);
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'end_user_created',
          application: { id: application.id, name: application.name },
          target: { kind: 'end_user', id: created.id, label: created.username },
          change: user,
        },
      });
      return outcome;
    });
    if (outcome.events) noteDeviceEvents(ctx, outcome.events);
    return outcome.user;
  } catch (error) {
    throw toAppUserWriteError(error);
  }
}
