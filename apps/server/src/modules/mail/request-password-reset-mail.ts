import type { Database } from '../../db/client.ts';
import type { MailOutbox } from './mail-outbox.ts';
import type { MailRequestThrottles } from './mail-request-throttles.ts';
import { queuePasswordResetMail } from './queue-password-reset.ts';

/** Asked (the same whether or not an account matched), or refused for this many seconds. */
export type PasswordResetRequestResult =
  { kind: 'asked' } | { kind: 'refused'; retryAfterSeconds: number };

/**
 * An end user's "I forgot my password", from their program (password/forgot) or the portal's
 * sign-in page: the budgets first (mail-request-throttles.ts), then one statement that queues
 * a link for each account the username or address names. Known, unknown, address-less and
 * over-budget accounts all end in `asked`: only a client address past its own budget is told
 * to wait. What it costs is the same either way too.
 */
export async function requestPasswordResetMail(
  deps: {
    db: Database;
    mail: MailOutbox;
    throttles: MailRequestThrottles;
    serverSecret: string;
  },
  request: {
    applicationId: number;
    ipAddress: string;
    target: { username: string } | { email: string };
  },
): Promise<PasswordResetRequestResult> {
  const { target } = request;
  const verdict = await deps.throttles.admit({
    applicationId: request.applicationId,
    ipAddress: request.ipAddress,
    target: 'username' in target ? target.username : target.email,
  });
  if (verdict.kind === 'refused') return verdict;
  if (verdict.kind === 'mail') {
    const queued = await queuePasswordResetMail(deps.db, {
      applicationId: request.applicationId,
      target,
      serverSecret: deps.serverSecret,
    });
    if (queued > 0) deps.mail.wake();
  }
  return { kind: 'asked' };
}
