import { AppError } from '../../lib/errors.ts';
import { writeActivityRows } from '../activity/index.ts';
import {
  KeyRefused,
  licenseRedeemedRecord,
  licenseRefusalMessages,
  refuseLicense,
} from '../client-api/index.ts';
import { redeemLicenseKey } from '../licenses/index.ts';
import { announcePortalChange, type PortalContext } from './portal-context.ts';
import type { FoundPortalSession } from './portal-sessions.ts';

/**
 * POST /api/portal/:publicId/redeem: a licence key onto the signed-in account, as the client
 * API's license/redeem does (the same claim, stacking, event and licence throttles: a refused
 * key counts against them and is a license_failed event, with action portal).
 */
export async function redeemPortalLicense({
  ctx,
  user,
  licenseKey,
}: {
  ctx: PortalContext;
  user: FoundPortalSession['user'];
  licenseKey: string;
}): Promise<void> {
  const { portal } = ctx;
  const now = ctx.clock.now();
  const recordContext = { ...ctx, application: { id: portal.id } };
  await ctx.licenseThrottles.admit({
    applicationId: portal.id,
    ipAddress: ctx.ipAddress,
    licenseKey,
  });
  try {
    const written = await ctx.db.transaction(async (tx) => {
      const redemption = await redeemLicenseKey(tx, {
        applicationId: portal.id,
        appUserId: user.id,
        key: licenseKey,
        now,
        serverSecret: ctx.serverSecret,
      });
      if (!redemption.isRedeemed) throw new KeyRefused(redemption.code, redemption.licenseId);
      const record = licenseRedeemedRecord(recordContext, {
        appUserId: user.id,
        username: user.username,
        licenseId: redemption.licenseId,
        planName: redemption.planName,
        action: 'portal',
        now,
      });
      return { record, queued: await writeActivityRows(tx, [record]) };
    });
    ctx.activity.noteWritten(written.record, written.queued);
  } catch (error) {
    if (!(error instanceof KeyRefused)) throw error;
    await refuseLicense(recordContext, {
      licenseKey,
      code: error.code,
      licenseId: error.licenseId,
      username: user.username,
      appUserId: user.id,
      action: 'portal',
      now,
    });
    throw new AppError('BAD_REQUEST', licenseRefusalMessages[error.code]);
  }
  await announcePortalChange(ctx, user.id);
}
