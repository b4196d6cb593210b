import { and, eq } from 'drizzle-orm';
import type { ClientVariableInput, ClientVariableResponse } from '@latchkey/contracts';
import { appVariables } from '../../db/schema/index.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { loadLiveSession } from './live-session.ts';

/**
 * POST /api/v1/var: an application variable's value, in the signed answer. One
 * that requires a session is answered only to a live one (the rule of license/checkout);
 * unknown names answer VARIABLE_NOT_FOUND. Read from the table on every call, never from a
 * cache: a kill switch the owner flips acts at once on every instance. When a token is sent
 * the session is read alongside the variable, so a gated read costs one round trip.
 */
export async function readApplicationVariable({
  ctx,
  input,
}: {
  ctx: ClientContext;
  input: ClientVariableInput;
}): Promise<ClientVariableResponse> {
  const { application } = ctx;
  if (!application.isActive) return appDisabled();
  const [rows, live] = await Promise.all([
    ctx.db
      .select({ value: appVariables.value, requiresSession: appVariables.requiresSession })
      .from(appVariables)
      .where(
        and(eq(appVariables.applicationId, application.id), eq(appVariables.name, input.name)),
      ),
    input.session_token === null ? null : loadLiveSession(ctx, input.session_token),
  ]);
  const [variable] = rows;
  if (!variable) return refusal('VARIABLE_NOT_FOUND', clientMessages.variableNotFound);
  if (variable.requiresSession) {
    if (!live) return refusal('SESSION_INVALID', clientMessages.sessionUnknown);
    if (live.refused) return live.refused;
  }
  return {
    success: true,
    message: clientMessages.variableRead,
    code: 'OK',
    name: input.name,
    value: variable.value,
  };
}
