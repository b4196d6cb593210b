import { and, eq } from 'drizzle-orm';
import type { ClientUserVariableInput, ClientVariableResponse } from '@latchkey/contracts';
import { appUserVariables } from '../../db/schema/index.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { loadLiveSession } from './live-session.ts';

/**
 * POST /api/v1/user-var: one of the session's own end user's variables. The user
 * comes from the live session, never from the request, so a program can read no one else's.
 */
export async function readOwnUserVariable({
  ctx,
  input,
}: {
  ctx: ClientContext;
  input: ClientUserVariableInput;
}): Promise<ClientVariableResponse> {
  if (!ctx.application.isActive) return appDisabled();
  const live = await loadLiveSession(ctx, input.session_token);
  if (live.refused) return live.refused;
  const [variable] = await ctx.db
    .select({ value: appUserVariables.value, isReadOnly: appUserVariables.isReadOnly })
    .from(appUserVariables)
    .where(
      and(
        eq(appUserVariables.appUserId, live.session.userId),
        eq(appUserVariables.name, input.name),
      ),
    );
  if (!variable) return refusal('VARIABLE_NOT_FOUND', clientMessages.variableNotFound);
  return {
    success: true,
    message: clientMessages.variableRead,
    code: 'OK',
    name: input.name,
    value: variable.value,
    read_only: variable.isReadOnly,
  };
}
