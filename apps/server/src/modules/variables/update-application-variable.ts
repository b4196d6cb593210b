import type { ApplicationVariable, UpdateApplicationVariableInput } from '@latchkey/contracts';
import { appVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import {
  applicationVariableNotFound,
  ownedApplicationVariableWhere,
  toApplicationVariableWriteError,
  type ApplicationVariableIds,
} from './owned-application-variable.ts';
import { recordVariableWrite } from './record-variable-write.ts';
import { toApplicationVariableResponse } from './to-application-variable-response.ts';

/**
 * Applies the given changes (absent fields stay as they are). A kill switch flipped here is
 * what every instance answers from the next call: reads are not cached anywhere.
 */
export async function updateApplicationVariable({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: ApplicationVariableIds & { changes: UpdateApplicationVariableInput };
}): Promise<ApplicationVariable> {
  const { changes } = input;
  let variable;
  try {
    variable = await ctx.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(appVariables)
        .set({
          name: changes.name,
          value: changes.value,
          requiresSession: changes.requiresSession,
          updatedAt: ctx.clock.now(),
        })
        .where(ownedApplicationVariableWhere(ctx, input))
        .returning();
      if (updated) {
        await recordVariableWrite({
          ctx: { ...ctx, db: tx },
          input: {
            action: 'variable_updated',
            applicationId: updated.applicationId,
            target: { kind: 'variable', id: updated.id, label: updated.name },
            change: { ...changes },
          },
        });
      }
      return updated;
    });
  } catch (error) {
    throw toApplicationVariableWriteError(error);
  }
  if (!variable) throw await applicationVariableNotFound(ctx, input);
  ctx.log.info(
    { variableId: variable.id, applicationId: variable.applicationId },
    'application variable updated',
  );
  return toApplicationVariableResponse(variable);
}
