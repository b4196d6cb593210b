import { MAIL_OFF_FOR_OWNER, USER_HAS_NO_EMAIL, type MailQueued } from '@latchkey/contracts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { AppError } from '../../lib/errors.ts';
import {
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
} from '../../ownership/owned-app-user.ts';
import type { MailOutbox } from './mail-outbox.ts';
import { queuePasswordResetMail } from './queue-password-reset.ts';

/**
 * The owner mails one of their end users a link to choose a new password (the user asked the
 * vendor for help). The same link and mail as password/forgot, without its budgets: the
 * owner is who they protect. 409 when the user has no address or the server sends no mail.
 */
export async function sendPasswordResetAsOwner({
  ctx,
  input,
  mail,
  serverSecret,
}: {
  ctx: OwnerContext;
  input: AppUserIds;
  mail: MailOutbox;
  serverSecret: string;
}): Promise<MailQueued> {
  const [user] = await ctx.db
    .select({ id: appUsers.id, username: appUsers.username, email: appUsers.email })
    .from(appUsers)
    .where(ownedAppUserWhere(ctx, input));
  if (!user) throw await appUserNotFound(ctx, input);
  if (!mail.isAvailable) throw new AppError('CONFLICT', MAIL_OFF_FOR_OWNER);
  if (!user.email) throw new AppError('CONFLICT', USER_HAS_NO_EMAIL);
  await ctx.db.transaction(async (tx) => {
    await queuePasswordResetMail(tx, {
      applicationId: input.applicationId,
      target: { appUserId: user.id },
      serverSecret,
    });
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'end_user_password_reset_sent',
        application: { id: input.applicationId },
        target: { kind: 'end_user', id: user.id, label: user.username },
      },
    });
  });
  mail.wake();
  return { message: `A link to choose a new password is on its way to ${user.email}` };
}
