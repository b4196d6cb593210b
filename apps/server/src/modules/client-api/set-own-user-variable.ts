import { and, eq } from 'drizzle-orm';
import type { ClientSetUserVariableInput, ClientVariableResponse } from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { loadLiveSession } from './live-session.ts';
import { writeUserVariable } from '../variables/index.ts';

/**
 * POST /api/v1/user-var/set: the session's own end user creates or replaces one of
 * their variables. Refused with VARIABLE_READ_ONLY when the owner made it read-only, and with
 * VARIABLE_LIMIT_REACHED for a new name past the per-user limit; an oversized value never gets
 * here (a 400 from the schema). Acknowledged means written: the answer follows the commit.
 */
export async function setOwnUserVariable({
  ctx,
  input,
}: {
  ctx: ClientContext;
  input: ClientSetUserVariableInput;
}): Promise<ClientVariableResponse> {
  const { application } = ctx;
  if (!application.isActive) return appDisabled();
  const live = await loadLiveSession(ctx, input.session_token);
  if (live.refused) return live.refused;
  const written = await writeUserVariable(ctx.db, {
    userWhere: and(
      eq(appUsers.id, live.session.userId),
      eq(appUsers.applicationId, application.id),
    ),
    name: input.name,
    value: input.value,
    isOwnerWrite: false,
    now: ctx.clock.now(),
  });
  switch (written.outcome) {
    case 'read-only':
      return refusal('VARIABLE_READ_ONLY', clientMessages.variableReadOnly);
    case 'limit-reached':
      return refusal('VARIABLE_LIMIT_REACHED', clientMessages.variableLimitReached);
    case 'user-not-found':
      // Deleted between the session's read and the write: its sessions went with it.
      return refusal('SESSION_INVALID', clientMessages.sessionUnknown);
    case 'written':
      return {
        success: true,
        message: clientMessages.variableSaved,
        code: 'OK',
        name: input.name,
        value: written.variable.value,
        read_only: written.variable.isReadOnly,
      };
  }
}
