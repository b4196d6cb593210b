import type { AppUser } from '../../db/schema/index.ts';
import type { AppUserIds, EndUserChangeContext } from '../../ownership/owned-app-user.ts';
import { updateOwnedAppUser } from './update-owned-app-user.ts';

export async function unpauseAppUser({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds;
}): Promise<AppUser> {
  return updateOwnedAppUser(
    ctx,
    input,
    { isPaused: false },
    { audit: { action: 'end_user_unpaused', change: { isPaused: false } } },
  );
}
