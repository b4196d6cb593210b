import type { AppUser } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { updateOwnedAppUser, type AppUserIds } from './owned-app-user.ts';

/** A paused user cannot log in until unpaused (status precedence: Expired > Paused > Active). */
export async function pauseAppUser({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AppUserIds;
}): Promise<AppUser> {
  return updateOwnedAppUser(ctx, input, { isPaused: true });
}
