import { appVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import {
  applicationVariableNotFound,
  ownedApplicationVariableWhere,
  type ApplicationVariableIds,
} from './owned-application-variable.ts';

/** Deletes one of an application's variables; programs asking for it get VARIABLE_NOT_FOUND. */
export async function deleteApplicationVariable({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: ApplicationVariableIds;
}): Promise<void> {
  const [deleted] = await ctx.db
    .delete(appVariables)
    .where(ownedApplicationVariableWhere(ctx, input))
    .returning({ id: appVariables.id });
  if (!deleted) throw await applicationVariableNotFound(ctx, input);
  ctx.log.info(
    { variableId: deleted.id, applicationId: input.applicationId },
    'application variable deleted',
  );
}
