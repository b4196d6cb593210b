import type { AppUser } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { updateOwnedAppUser, type AppUserIds } from './owned-app-user.ts';

/** Unbinds the user's device: with HWID lock on, the next login binds whichever device it is. */
export async function resetAppUserHwid({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AppUserIds;
}): Promise<AppUser> {
  return updateOwnedAppUser(ctx, input, { hwid: null });
}
