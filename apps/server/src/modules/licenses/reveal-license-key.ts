import { licenseKeys } from '../../db/schema/index.ts';
import type { LicenseContext } from './license-context.ts';
import { unsealLicenseKey } from './license-key-secrets.ts';
import { licenseNotFound, ownedLicenseWhere, type LicenseIds } from './owned-license.ts';

/** The whole text of one key, for the owner; logged (without the key), as a reveal should be. */
export async function revealLicenseKey({
  ctx,
  input,
}: {
  ctx: LicenseContext;
  input: LicenseIds;
}): Promise<{ key: string }> {
  const [row] = await ctx.db
    .select({ id: licenseKeys.id, keySealed: licenseKeys.keySealed })
    .from(licenseKeys)
    .where(ownedLicenseWhere(ctx, input));
  if (!row) throw await licenseNotFound(ctx, input);
  ctx.log.info({ licenseId: row.id, applicationId: input.applicationId }, 'licence key revealed');
  return { key: unsealLicenseKey(row.keySealed, ctx.serverSecret) };
}
