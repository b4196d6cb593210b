import { appVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import {
  applicationVariableNotFound,
  ownedApplicationVariableWhere,
  type ApplicationVariableIds,
} from './owned-application-variable.ts';
import { recordVariableWrite } from './record-variable-write.ts';

/** Deletes one of an application's variables; programs asking for it get VARIABLE_NOT_FOUND. */
export async function deleteApplicationVariable({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: ApplicationVariableIds;
}): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(appVariables)
      .where(ownedApplicationVariableWhere(ctx, input))
      .returning({ id: appVariables.id, name: appVariables.name });
    if (row) {
      await recordVariableWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'variable_deleted',
          applicationId: input.applicationId,
          target: { kind: 'variable', id: row.id, label: row.name },
        },
      });
    }
    return row;
  });
  if (!deleted) throw await applicationVariableNotFound(ctx, input);
  ctx.log.info(
    { variableId: deleted.id, applicationId: input.applicationId },
    'application variable deleted',
  );
}
