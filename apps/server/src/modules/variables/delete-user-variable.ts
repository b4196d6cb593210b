import { appUserVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import {
  ownedUserVariableWhere,
  userVariableNotFound,
  type UserVariableIds,
} from './owned-user-variable.ts';
import { endUserTarget, recordVariableWrite } from './record-variable-write.ts';

/** Deletes one of an end user's variables; the program reading it gets VARIABLE_NOT_FOUND. */
export async function deleteUserVariable({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: UserVariableIds;
}): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(appUserVariables)
      .where(ownedUserVariableWhere(ctx, input))
      .returning({ name: appUserVariables.name });
    if (row) {
      await recordVariableWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'user_variable_deleted',
          applicationId: input.applicationId,
          target: await endUserTarget(tx, input.userId),
          change: { variable: row.name },
        },
      });
    }
    return row;
  });
  if (!deleted) throw await userVariableNotFound(ctx, input);
  ctx.log.info(
    { appUserId: input.userId, applicationId: input.applicationId },
    'user variable deleted',
  );
}
