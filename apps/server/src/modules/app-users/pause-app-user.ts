import type { AppUser } from '../../db/schema/index.ts';
import {
  updateOwnedAppUser,
  type AppUserIds,
  type EndUserChangeContext,
} from './owned-app-user.ts';

/** A paused user cannot log in until unpaused (status precedence: Expired > Paused > Active). */
export async function pauseAppUser({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds;
}): Promise<AppUser> {
  return updateOwnedAppUser(
    ctx,
    input,
    { isPaused: true },
    { audit: { action: 'end_user_paused', change: { isPaused: true } } },
  );
}
