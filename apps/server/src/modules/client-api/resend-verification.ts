import { and, eq } from 'drizzle-orm';
import type { ClientMailResponse, ClientResendVerificationInput } from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import { verifyPassword } from '../../lib/password-hashing.ts';
import {
  queueEmailVerificationMail,
  type MailOutbox,
  type MailRequestThrottles,
} from '../mail/index.ts';
import { rateLimited } from './client-api-error.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';

/**
 * POST /api/v1/email/verify/resend: a new link to confirm the address of the account the
 * username and password prove. The answer is the same for an unknown account, a wrong
 * password, an account without an address or with one confirmed already, and past the
 * account's or the application's mail budget; only a client address past its own budget is
 * refused (429), before any hash is spent. The password is checked (on a dummy hash when no
 * account matches) so that a stranger cannot make an account's owner receive mail.
 */
export async function resendVerification({
  ctx,
  input,
}: {
  ctx: ClientContext & {
    mail: MailOutbox;
    mailThrottles: MailRequestThrottles;
    serverSecret: string;
  };
  input: ClientResendVerificationInput;
}): Promise<ClientMailResponse> {
  const { application, mail } = ctx;
  if (!application.isActive) return appDisabled();
  if (!mail.isAvailable) return refusal('MAIL_UNAVAILABLE', clientMessages.mailUnavailable);
  const verdict = await ctx.mailThrottles.admit({
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    target: input.username,
  });
  if (verdict.kind === 'refused') throw rateLimited(verdict.retryAfterSeconds);
  const [user] = await ctx.db
    .select({ id: appUsers.id, passwordHash: appUsers.passwordHash })
    .from(appUsers)
    .where(and(eq(appUsers.applicationId, application.id), eq(appUsers.username, input.username)))
    .limit(1);
  const isPasswordCorrect = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (user && isPasswordCorrect && verdict.kind === 'mail') {
    const isQueued = await queueEmailVerificationMail(ctx.db, {
      applicationId: application.id,
      appUserId: user.id,
      serverSecret: ctx.serverSecret,
    });
    if (isQueued) mail.wake();
  }
  return { success: true, message: clientMessages.verificationResent, code: 'OK' };
}
