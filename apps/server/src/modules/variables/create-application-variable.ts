import type { ApplicationVariable, CreateApplicationVariableInput } from '@latchkey/contracts';
import { appVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { toApplicationVariableWriteError } from './owned-application-variable.ts';
import { recordVariableWrite } from './record-variable-write.ts';
import { toApplicationVariableResponse } from './to-application-variable-response.ts';

/**
 * Adds a variable to one of the owner's applications. Programs read it from the next call on:
 * the client API reads the table every time, so there is no cache to tell. A name the
 * application already has is refused by the unique index, so two concurrent creations cannot
 * both win.
 */
export async function createApplicationVariable({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number; variable: CreateApplicationVariableInput };
}): Promise<ApplicationVariable> {
  // Another owner's application is indistinguishable from a missing one (404).
  const application = await loadOwnedApplication({ ctx, input });
  const now = ctx.clock.now();
  let variable;
  try {
    variable = await ctx.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(appVariables)
        .values({
          applicationId: application.id,
          name: input.variable.name,
          value: input.variable.value,
          requiresSession: input.variable.requiresSession,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!created) throw new Error('insert returned no row');
      await recordVariableWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'variable_created',
          applicationId: application.id,
          target: { kind: 'variable', id: created.id, label: created.name },
          change: { ...input.variable },
        },
      });
      return created;
    });
  } catch (error) {
    throw toApplicationVariableWriteError(error);
  }
  // The name only: a value may be a secret the vendor hands to its programs.
  ctx.log.info(
    { variableId: variable.id, applicationId: application.id },
    'application variable created',
  );
  return toApplicationVariableResponse(variable);
}
