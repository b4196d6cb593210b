import { eq } from 'drizzle-orm';
import { appUsers, licenseKeys } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { licenseRowColumns } from './list-licenses.ts';
import { licenseNotFound, ownedLicenseWhere, type LicenseIds } from './owned-license.ts';
import type { LicenseRow } from './to-license-response.ts';

/** One of the owner's licence keys as the list shows it, or the right 404. */
export async function getLicense({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: LicenseIds;
}): Promise<LicenseRow> {
  const [row] = await ctx.db
    .select(licenseRowColumns)
    .from(licenseKeys)
    .leftJoin(appUsers, eq(appUsers.id, licenseKeys.usedByUserId))
    .where(ownedLicenseWhere(ctx, input))
    .limit(1);
  if (!row) throw await licenseNotFound(ctx, input);
  return row;
}
