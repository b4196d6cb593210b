import type { CreateAppUserInput } from '@latchkey/contracts';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { hashPassword } from '../../lib/password-hashing.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';
import { toAppUserWriteError } from './owned-app-user.ts';

/** A new end user of one of the owner's applications; the username is unique per application. */
export async function createAppUser({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number; user: CreateAppUserInput };
}): Promise<AppUser> {
  // Ownership first: no hashing work for an application the owner cannot see.
  const application = await loadOwnedApplication({ ctx, input });
  const { user } = input;
  const passwordHash = await hashPassword(user.password);
  const now = ctx.clock.now();
  try {
    const [created] = await ctx.db
      .insert(appUsers)
      .values({
        applicationId: application.id,
        username: user.username,
        email: user.email,
        passwordHash,
        expiresAt: user.expiresAt,
        hwid: user.hwid,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    return created;
  } catch (error) {
    throw toAppUserWriteError(error);
  }
}
