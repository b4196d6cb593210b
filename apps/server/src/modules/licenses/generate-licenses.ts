import { and, eq } from 'drizzle-orm';
import {
  LICENSE_PLAN_ARCHIVED,
  LICENSE_REDEEM_BY_PAST,
  MAIL_OFF_FOR_OWNER,
  PLAN_NOT_FOUND,
  type GeneratedLicenses,
  type GenerateLicensesInput,
} from '@latchkey/contracts';
import { plans } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { queueMail, type MailOutbox } from '../mail/index.ts';
import type { LicenseContext } from './license-context.ts';
import { mintLicenseKeys } from './mint-license-keys.ts';

/**
 * Mints `count` keys of one plan in one transaction, with its audit entry: all of them or
 * none. The answer is the only time the keys travel whole without an explicit reveal, so the
 * owner can hand them to a shop. With `emailTo`, the keys are also mailed, in one message.
 */
export async function generateLicenses({
  ctx,
  input,
  mail,
}: {
  ctx: LicenseContext;
  input: { applicationId: number; request: GenerateLicensesInput };
  /** Where `emailTo`'s mail is queued. */
  mail: MailOutbox;
}): Promise<GeneratedLicenses> {
  const application = await loadOwnedApplication({ ctx, input });
  const { request } = input;
  const [plan] = await ctx.db
    .select({ id: plans.id, name: plans.name, isArchived: plans.isArchived })
    .from(plans)
    .where(
      and(
        eq(plans.id, request.planId),
        eq(plans.applicationId, application.id),
        eq(plans.isTrial, false),
      ),
    );
  if (!plan) throw notFound(PLAN_NOT_FOUND);
  if (plan.isArchived) throw new AppError('CONFLICT', LICENSE_PLAN_ARCHIVED);
  const now = ctx.clock.now();
  const redeemBy = request.redeemBy ? new Date(request.redeemBy) : null;
  if (redeemBy && redeemBy <= now) throw badRequest(`redeemBy: ${LICENSE_REDEEM_BY_PAST}`);
  if (request.emailTo !== null && !mail.isAvailable) {
    throw new AppError('CONFLICT', MAIL_OFF_FOR_OWNER);
  }

  const keys = await ctx.db.transaction(async (tx) => {
    const minted = await mintLicenseKeys(tx, {
      applicationId: application.id,
      planId: plan.id,
      count: request.count,
      mask: request.mask,
      case: request.case,
      note: request.note,
      redeemBy,
      now,
      serverSecret: ctx.serverSecret,
    });
    // One mail with every key, in the keys' own transaction: minted and mailed together.
    if (request.emailTo !== null) {
      await queueMail(tx, {
        applicationId: application.id,
        kind: 'license_key',
        recipient: request.emailTo,
        values: { plan: plan.name },
        secrets: { key: minted.map((key) => key.key).join('\n') },
        serverSecret: ctx.serverSecret,
      });
    }
    // The request's settings, never the keys: their text is a bearer secret.
    const { planId: _planId, ...settings } = request;
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'license_keys_generated',
        application: { id: application.id, name: application.name },
        target: { kind: 'plan', id: plan.id, label: plan.name },
        change: settings,
      },
    });
    return minted;
  });
  if (request.emailTo !== null) mail.wake();
  // Never the keys themselves: a log line is not where a bearer secret may go.
  ctx.log.info(
    { applicationId: application.id, planId: plan.id, count: keys.length },
    'licence keys generated',
  );
  return { keys };
}
