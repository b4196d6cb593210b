import { DEVICE_NOT_FOUND } from '@latchkey/contracts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { releaseOwnDevices } from '../devices/index.ts';
import { announcePortalChange, type PortalContext } from './portal-context.ts';
import type { FoundPortalSession } from './portal-sessions.ts';

export const PORTAL_RESET_COOLDOWN =
  'You released a device recently: you can release another one from the time shown under Devices';
export const PORTAL_RESET_NOT_ALLOWED =
  'This application does not let you release devices yourself: contact the vendor';

/**
 * DELETE /api/portal/:publicId/devices/:deviceId: the end user releases one of their devices,
 * under the same rules as the client API's devices/reset (self-service on, one per cooldown).
 */
export async function releasePortalDevice({
  ctx,
  user,
  deviceId,
}: {
  ctx: PortalContext;
  user: FoundPortalSession['user'];
  deviceId: string;
}): Promise<void> {
  const outcome = await releaseOwnDevices(ctx.db, {
    application: ctx.portal,
    user,
    which: { deviceId },
    ipAddress: ctx.ipAddress,
    now: ctx.clock.now(),
  });
  switch (outcome.kind) {
    case 'not-allowed':
      throw forbidden(PORTAL_RESET_NOT_ALLOWED);
    case 'cooldown':
      // The page shows when, from the account's nextResetAt, in the reader's own time zone.
      throw new AppError('CONFLICT', PORTAL_RESET_COOLDOWN);
    case 'no-such-device':
      throw notFound(DEVICE_NOT_FOUND);
  }
  const { records, queuedDeliveries } = outcome.released;
  records.forEach((record, index) =>
    ctx.activity.noteWritten(record, index === records.length - 1 ? queuedDeliveries : 0),
  );
  await announcePortalChange(ctx, user.id);
}
