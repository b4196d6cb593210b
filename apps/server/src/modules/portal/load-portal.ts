import { and, eq } from 'drizzle-orm';
import { PORTAL_NOT_FOUND } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { applications } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';

/** What the portal needs of its application. */
export interface PortalApplication {
  id: number;
  ownerAccountId: string;
  publicId: string;
  /** The portal's display name, or the application's. */
  name: string;
  isActive: boolean;
  maxDevices: number;
  isSelfServiceReset: boolean;
  resetCooldownHours: number;
  isLicenseRequired: boolean;
  /** An unconfirmed address keeps the end user out of the portal as out of the program. */
  requireVerifiedEmail: boolean;
  accountDisabledMessage: string;
  accountExpiredMessage: string;
}

/**
 * The application whose portal is at this public id, if its portal is on: a portal that is
 * off answers exactly like one that does not exist (404), so ids cannot be probed. The pages
 * mailed links open (choose a new password) work with the portal's sign-in off: they ask
 * `evenWhenOff`.
 */
export async function loadPortal(
  db: Database,
  publicId: string,
  options: { evenWhenOff?: boolean } = {},
): Promise<PortalApplication> {
  const [row] = await db
    .select({
      id: applications.id,
      ownerAccountId: applications.ownerAccountId,
      publicId: applications.portalPublicId,
      applicationName: applications.name,
      portalName: applications.portalName,
      isActive: applications.isActive,
      maxDevices: applications.maxDevices,
      isSelfServiceReset: applications.isSelfServiceReset,
      resetCooldownHours: applications.resetCooldownHours,
      isLicenseRequired: applications.isLicenseRequired,
      requireVerifiedEmail: applications.requireVerifiedEmail,
      accountDisabledMessage: applications.accountDisabledMessage,
      accountExpiredMessage: applications.accountExpiredMessage,
    })
    .from(applications)
    .where(
      and(
        eq(applications.portalPublicId, publicId),
        options.evenWhenOff ? undefined : eq(applications.isPortalEnabled, true),
      ),
    );
  if (!row) throw notFound(PORTAL_NOT_FOUND);
  const { applicationName, portalName, ...application } = row;
  return { ...application, name: portalName ?? applicationName };
}
