import type { AppUser } from '../../db/schema/index.ts';
import {
  updateOwnedAppUser,
  type AppUserIds,
  type EndUserChangeContext,
} from './owned-app-user.ts';

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
