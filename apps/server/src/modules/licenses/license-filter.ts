import { and, eq, gt, ilike, inArray, isNull, lte, not, or, sql, type SQL } from 'drizzle-orm';
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

/** What a search looks for: a whole key (by its digest), its last four, a note, a username. */
interface LicenseSearch {
  digest: string;
  suffix: string;
  pattern: string;
}

function toLicenseSearch(search: string, serverSecret: string): LicenseSearch {
  return {
    digest: licenseKeyDigest(search, serverSecret),
    suffix: search.toLowerCase(),
    pattern: containsPattern(search),
  };
}

function statusAndPlanWhere(applicationId: number, filter: LicenseFilter, now: Date): SQL[] {
  const conditions: SQL[] = [eq(licenseKeys.applicationId, applicationId)];
  if (filter.status) conditions.push(licenseStatusWhere(filter.status, now));
  if (filter.planId) conditions.push(eq(licenseKeys.planId, filter.planId));
  return conditions;
}

/**
 * The keys of one application (already the owner's) that a list or an export shows, as a
 * condition on each row: what a walk of the (application_id, created_at, id) index filters
 * with. A search matches a whole key (by its digest), a key's last four characters, the note,
 * or the username of whoever used it (those users found once, by the trigram index).
 */
export function licenseFilterWhere(
  db: Database,
  applicationId: number,
  filter: LicenseFilter,
  { now, serverSecret }: { now: Date; serverSecret: string },
): SQL {
  const conditions = statusAndPlanWhere(applicationId, filter, now);
  if (filter.search) {
    const search = toLicenseSearch(filter.search, serverSecret);
    const matchingUsers = db
      .select({ id: appUsers.id })
      .from(appUsers)
      .where(
        and(eq(appUsers.applicationId, applicationId), ilike(appUsers.username, search.pattern)),
      );
    conditions.push(
      or(
        eq(licenseKeys.keyDigest, search.digest),
        eq(licenseKeys.keySuffix, search.suffix),
        ilike(licenseKeys.note, search.pattern),
        inArray(licenseKeys.usedByUserId, matchingUsers),
      )!,
    );
  }
  return and(...conditions)!;
}

/**
 * The keys a search matches, with their creation times, found by four indexed lookups (the
 * digest, the last four, the note's trigrams, the holders' usernames' trigrams) instead of a
 * walk. Each lookup leaves out what an earlier one found, so the four never overlap and
 * `UNION ALL` needs no de-duplication: a capped count or a page over them stops as soon as it
 * has enough rows. At most `limit` rows.
 */
export function licenseSearchMatches(
  db: Database,
  applicationId: number,
  filter: LicenseFilter & { search: string },
  { now, serverSecret, limit }: { now: Date; serverSecret: string; limit: number },
) {
  const search = toLicenseSearch(filter.search, serverSecret);
  const rowFilter = statusAndPlanWhere(applicationId, filter, now);
  const matchedByKey = eq(licenseKeys.keyDigest, search.digest);
  const matchedBySuffix = eq(licenseKeys.keySuffix, search.suffix);
  const matchedByNote = sql`coalesce(${licenseKeys.note} ilike ${search.pattern}, false)`;
  const keys = (where: SQL) =>
    db
      .select({ id: licenseKeys.id, createdAt: licenseKeys.createdAt })
      .from(licenseKeys)
      .where(and(...rowFilter, where));
  const byHolder = db
    .select({ id: licenseKeys.id, createdAt: licenseKeys.createdAt })
    .from(licenseKeys)
    .innerJoin(appUsers, eq(appUsers.id, licenseKeys.usedByUserId))
    .where(
      and(
        ...rowFilter,
        eq(appUsers.applicationId, applicationId),
        ilike(appUsers.username, search.pattern),
        not(matchedByKey),
        not(matchedBySuffix),
        sql`not ${matchedByNote}`,
      ),
    );
  return keys(matchedByKey)
    .unionAll(keys(and(matchedBySuffix, not(matchedByKey))!))
    .unionAll(
      keys(and(ilike(licenseKeys.note, search.pattern), not(matchedBySuffix), not(matchedByKey))!),
    )
    .unionAll(byHolder)
    .limit(limit)
    .as('matches');
}
