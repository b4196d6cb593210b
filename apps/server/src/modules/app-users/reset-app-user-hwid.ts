import type { AppUser } from '../../db/schema/index.ts';
import {
  updateOwnedAppUser,
  type AppUserIds,
  type EndUserChangeContext,
} from './owned-app-user.ts';

/** Unbinds the user's device: with HWID lock on, the next login binds whichever device it is. */
export async function resetAppUserHwid({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds;
}): Promise<AppUser> {
  return updateOwnedAppUser(ctx, input, { hwid: null });
}
