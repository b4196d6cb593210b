import { appUserVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import {
  ownedUserVariableWhere,
  userVariableNotFound,
  type UserVariableIds,
} from './owned-user-variable.ts';

/** Deletes one of an end user's variables; the program reading it gets VARIABLE_NOT_FOUND. */
export async function deleteUserVariable({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: UserVariableIds;
}): Promise<void> {
  const [deleted] = await ctx.db
    .delete(appUserVariables)
    .where(ownedUserVariableWhere(ctx, input))
    .returning({ name: appUserVariables.name });
  if (!deleted) throw await userVariableNotFound(ctx, input);
  ctx.log.info(
    { appUserId: input.userId, applicationId: input.applicationId },
    'user variable deleted',
  );
}
