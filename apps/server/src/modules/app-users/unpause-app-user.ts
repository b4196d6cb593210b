import type { AppUser } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { updateOwnedAppUser, type AppUserIds } from './owned-app-user.ts';

export async function unpauseAppUser({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AppUserIds;
}): Promise<AppUser> {
  return updateOwnedAppUser(ctx, input, { isPaused: false });
}
