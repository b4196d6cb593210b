import {
  USER_VARIABLE_LIMIT_REACHED,
  type PutUserVariableInput,
  type UserVariable,
} from '@latchkey/contracts';
import type { OwnerContext } from '../../http/request-context.ts';
import { AppError } from '../../lib/errors.ts';
import { appUserNotFound, ownedAppUserWhere } from '../../ownership/owned-app-user.ts';
import type { UserVariableIds } from './owned-user-variable.ts';
import { endUserTarget, recordVariableWrite } from './record-variable-write.ts';
import { toUserVariableResponse } from './to-user-variable-response.ts';
import { writeUserVariable } from './write-user-variable.ts';

/**
 * PUT …/users/:userId/variables/:name: creates or replaces one of the user's variables, and
 * whether the program may change it. The owner may rewrite a read-only one; a new name past
 * the per-user limit is a 409.
 */
export async function putUserVariable({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: UserVariableIds & { variable: PutUserVariableInput };
}): Promise<UserVariable> {
  const written = await ctx.db.transaction(async (tx) => {
    const write = await writeUserVariable(tx, {
      userWhere: ownedAppUserWhere(ctx, input),
      name: input.name,
      value: input.variable.value,
      readOnly: input.variable.readOnly,
      isOwnerWrite: true,
      now: ctx.clock.now(),
    });
    if (write.outcome === 'written') {
      await recordVariableWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'user_variable_set',
          applicationId: input.applicationId,
          target: await endUserTarget(tx, input.userId),
          change: { variable: input.name, ...input.variable },
        },
      });
    }
    return write;
  });
  switch (written.outcome) {
    case 'user-not-found':
      throw await appUserNotFound(ctx, input);
    case 'read-only':
      // Read-only binds the program, not the owner: an owner's write is never refused so.
      throw new Error('an owner write was refused as read-only');
    case 'limit-reached':
      throw new AppError('CONFLICT', USER_VARIABLE_LIMIT_REACHED);
    case 'written':
      ctx.log.info(
        { appUserId: input.userId, applicationId: input.applicationId },
        'user variable written',
      );
      return toUserVariableResponse(written.variable);
  }
}
