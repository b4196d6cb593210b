import type { AppUser } from '../../db/schema/index.ts';
import type { AppUserIds, EndUserChangeContext } from '../../ownership/owned-app-user.ts';
import { updateOwnedAppUser } from './update-owned-app-user.ts';

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
