import { eq } from 'drizzle-orm';
import { LICENSE_BANNED_NOT_MAILED, MAIL_OFF_FOR_OWNER } from '@latchkey/contracts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { licenseKeys, plans } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { queueMail, type MailOutbox } from '../mail/index.ts';
import type { LicenseContext } from './license-context.ts';
import { unsealLicenseKey } from './license-key-secrets.ts';
import { licenseNotFound, ownedLicenseWhere, type LicenseIds } from './owned-license.ts';

/**
 * Mails one key, whole, to an address (a buyer's): the plan it grants and how to redeem it.
 * The mail carries the key; the outbox keeps it sealed until delivered, and the audit entry
 * names the address, never the key. A banned key is not sent (409).
 */
export async function emailLicenseKey({
  ctx,
  input,
  mail,
}: {
  ctx: LicenseContext;
  input: LicenseIds & { to: string };
  mail: MailOutbox;
}): Promise<{ message: string }> {
  const [row] = await ctx.db
    .select({
      id: licenseKeys.id,
      keySealed: licenseKeys.keySealed,
      display: licenseKeys.display,
      state: licenseKeys.state,
      planName: plans.name,
    })
    .from(licenseKeys)
    .innerJoin(plans, eq(plans.id, licenseKeys.planId))
    .where(ownedLicenseWhere(ctx, input));
  if (!row) throw await licenseNotFound(ctx, input);
  if (!mail.isAvailable) throw new AppError('CONFLICT', MAIL_OFF_FOR_OWNER);
  if (row.state === 'banned') throw new AppError('CONFLICT', LICENSE_BANNED_NOT_MAILED);
  await ctx.db.transaction(async (tx) => {
    await queueMail(tx, {
      applicationId: input.applicationId,
      kind: 'license_key',
      recipient: input.to,
      values: { plan: row.planName },
      secrets: { key: unsealLicenseKey(row.keySealed, ctx.serverSecret) },
      serverSecret: ctx.serverSecret,
    });
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'license_key_emailed',
        application: { id: input.applicationId },
        target: { kind: 'license_key', id: row.id, label: row.display },
        change: { to: input.to },
      },
    });
  });
  mail.wake();
  return { message: `The key is on its way to ${input.to}` };
}
