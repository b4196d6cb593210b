import { and, eq, gt, ilike, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { LicenseFilter, LicenseStatus } from '@latchkey/contracts';
import { appUsers, licenseKeys } from '../../db/schema/index.ts';
import type { Database } from '../../db/client.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { licenseKeyDigest } from './license-key-secrets.ts';

/** `expired` is not stored: an unused key past its redeem-by date, as of `now`. */
export function licenseStatusWhere(status: LicenseStatus, now: Date): SQL {
  switch (status) {
    case 'unused':
      return and(
        eq(licenseKeys.state, 'unused'),
        or(isNull(licenseKeys.redeemBy), gt(licenseKeys.redeemBy, now)),
      )!;
    case 'expired':
      return and(eq(licenseKeys.state, 'unused'), lte(licenseKeys.redeemBy, now))!;
    default:
      return eq(licenseKeys.state, status);
  }
}

/** What a key's status is now. */
export function licenseStatusOf(
  key: { state: 'unused' | 'used' | 'banned'; redeemBy: Date | null },
  now: Date,
): LicenseStatus {
  return key.state === 'unused' && key.redeemBy && key.redeemBy <= now ? 'expired' : key.state;
}

/**
 * The keys of one application (already the owner's) that a list or an export shows. A search
 * matches a whole key (by its digest), a key's last four characters, the note, or the
 * username of whoever used it; each is its own indexed lookup, united, so a search at a
 * million keys reads only what it finds.
 */
export function licenseFilterWhere(
  db: Database,
  applicationId: number,
  filter: LicenseFilter,
  { now, serverSecret }: { now: Date; serverSecret: string },
): SQL {
  const conditions: SQL[] = [eq(licenseKeys.applicationId, applicationId)];
  if (filter.status) conditions.push(licenseStatusWhere(filter.status, now));
  if (filter.planId) conditions.push(eq(licenseKeys.planId, filter.planId));
  if (filter.search) conditions.push(searchWhere(db, applicationId, filter.search, serverSecret));
  return and(...conditions)!;
}

function searchWhere(db: Database, applicationId: number, search: string, serverSecret: string) {
  const pattern = containsPattern(search);
  const inApplication = eq(licenseKeys.applicationId, applicationId);
  const ids = (where: SQL) => db.select({ id: licenseKeys.id }).from(licenseKeys).where(where);
  const usedByMatchingUser = db
    .select({ id: licenseKeys.id })
    .from(licenseKeys)
    .innerJoin(appUsers, eq(appUsers.id, licenseKeys.usedByUserId))
    .where(
      and(
        inApplication,
        eq(appUsers.applicationId, applicationId),
        ilike(appUsers.username, pattern),
      ),
    );
  const matching = ids(
    and(inApplication, eq(licenseKeys.keyDigest, licenseKeyDigest(search, serverSecret)))!,
  )
    .union(ids(and(inApplication, eq(licenseKeys.keySuffix, search.toLowerCase()))!))
    .union(ids(and(inApplication, ilike(licenseKeys.note, pattern))!))
    .union(usedByMatchingUser);
  return sql`${licenseKeys.id} in (${matching})`;
}
