import { asc, eq } from 'drizzle-orm';
import type { PortalAccount } from '@latchkey/contracts';
import { appUserDevices } from '../../db/schema/index.ts';
import { deviceLimitOf, nextSelfResetAt } from '../devices/index.ts';
import {
  readHeldSubscriptions,
  activeEntitlements,
  licensingOf,
  readSubscriptions,
} from '../subscriptions/index.ts';
import { userMetersOf } from '../meters/index.ts';
import type { PortalContext } from './portal-context.ts';
import type { FoundPortalSession } from './portal-sessions.ts';

/** The signed-in user's account as the portal shows it (never a HWID in full). */
export async function readPortalAccount({
  ctx,
  user,
}: {
  ctx: PortalContext;
  user: FoundPortalSession['user'];
}): Promise<PortalAccount> {
  const { portal } = ctx;
  const now = ctx.clock.now();
  const [subscriptions, held, devices] = await Promise.all([
    readSubscriptions(ctx.db, user.id, now),
    readHeldSubscriptions(ctx.db, user.id),
    ctx.db
      .select()
      .from(appUserDevices)
      .where(eq(appUserDevices.appUserId, user.id))
      .orderBy(asc(appUserDevices.firstSeenAt), asc(appUserDevices.id)),
  ]);
  const licensing = licensingOf(held, now);
  return {
    portalName: portal.name,
    username: user.username,
    email: user.email,
    expiresAt: user.expiresAt?.toISOString() ?? null,
    subscriptions,
    entitlements: activeEntitlements(subscriptions),
    meters: userMetersOf(licensing.meters, licensing.meterUsage, now),
    devices: devices.map((device) => ({
      id: device.id,
      name: device.name,
      hwidPreview: device.hwid.slice(0, 8),
      firstSeenAt: device.firstSeenAt.toISOString(),
      lastSeenAt: device.lastSeenAt.toISOString(),
      activatedOfflineAt: device.activatedOfflineAt?.toISOString() ?? null,
    })),
    deviceLimit: deviceLimitOf(portal.maxDevices, held, now),
    selfServiceReset: portal.isSelfServiceReset,
    nextResetAt: portal.isSelfServiceReset
      ? (nextSelfResetAt(user.lastSelfResetAt, portal.resetCooldownHours, now)?.toISOString() ??
        null)
      : null,
  };
}
