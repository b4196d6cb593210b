import { and, eq, inArray } from 'drizzle-orm';
import { LICENSE_NOT_FOUND } from '@latchkey/contracts';
import { licenseKeys } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import type { AppError } from '../../lib/errors.ts';
import { notFound } from '../../lib/errors.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';

export interface LicenseIds {
  applicationId: number;
  licenseId: string;
}

/**
 * The condition every statement on one key carries: the key, in that application, and that
 * application belongs to the signed-in owner. Another application's key matches nothing.
 */
export function ownedLicenseWhere(ctx: OwnerContext, ids: LicenseIds) {
  return and(
    eq(licenseKeys.id, ids.licenseId),
    eq(licenseKeys.applicationId, ids.applicationId),
    inArray(licenseKeys.applicationId, ownedApplicationIds(ctx, ids.applicationId)),
  );
}

/** The 404 to give when a scoped statement matched nothing: which of the two is missing. */
export async function licenseNotFound(ctx: OwnerContext, ids: LicenseIds): Promise<AppError> {
  await loadOwnedApplication({ ctx, input: { applicationId: ids.applicationId } });
  return notFound(LICENSE_NOT_FOUND);
}
