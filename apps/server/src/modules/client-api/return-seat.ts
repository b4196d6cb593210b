import { SESSION_TOKEN_PATTERN, type ClientReturnResponse } from '@latchkey/contracts';
import { hashToken } from '../../lib/tokens.ts';
import { returnLease } from '../seats/index.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';

/**
 * POST /api/v1/session/return: a borrowed seat given back before the borrow ends. Its login's
 * session may have ended (the computer went offline on the licence); if it is still open, the
 * seat goes back to an ordinary lease its heartbeats renew. The offline licence already issued
 * cannot be recalled: the program discards it.
 */
export async function returnSeat({
  ctx,
  input,
}: {
  ctx: ClientContext;
  input: { session_token: string };
}): Promise<ClientReturnResponse> {
  if (!ctx.application.isActive) return appDisabled();
  if (!SESSION_TOKEN_PATTERN.test(input.session_token)) {
    return refusal('SESSION_INVALID', clientMessages.sessionTokenMalformed);
  }
  const isReturned = await returnLease(ctx.db, {
    applicationId: ctx.application.id,
    tokenHash: hashToken(input.session_token),
    now: ctx.clock.now(),
  });
  if (!isReturned) return refusal('SESSION_INVALID', clientMessages.noBorrowedSeat);
  return { success: true, message: clientMessages.seatReturned, code: 'OK' };
}
