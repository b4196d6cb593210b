import {
  FORGOT_PASSWORD_ANSWER,
  type ClientForgotPasswordInput,
  type ClientMailResponse,
} from '@latchkey/contracts';
import {
  requestPasswordResetMail,
  type MailOutbox,
  type MailRequestThrottles,
} from '../mail/index.ts';
import { rateLimited } from './client-api-error.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';

/**
 * POST /api/v1/password/forgot: mails a link to choose a new password to the account named
 * by its username or its address (mail/request-password-reset-mail.ts). The answer is the
 * same whether or not the account exists; only a client address past its own budget is
 * refused (429).
 */
export async function requestPasswordReset({
  ctx,
  input,
}: {
  ctx: ClientContext & {
    mail: MailOutbox;
    mailThrottles: MailRequestThrottles;
    serverSecret: string;
  };
  input: ClientForgotPasswordInput;
}): Promise<ClientMailResponse> {
  const { application, mail } = ctx;
  if (!application.isActive) return appDisabled();
  if (!mail.isAvailable) return refusal('MAIL_UNAVAILABLE', clientMessages.mailUnavailable);
  const result = await requestPasswordResetMail(
    { db: ctx.db, mail, throttles: ctx.mailThrottles, serverSecret: ctx.serverSecret },
    {
      applicationId: application.id,
      ipAddress: ctx.ipAddress,
      target: input.username !== null ? { username: input.username } : { email: input.email! },
    },
  );
  if (result.kind === 'refused') throw rateLimited(result.retryAfterSeconds);
  return { success: true, message: FORGOT_PASSWORD_ANSWER, code: 'OK' };
}
