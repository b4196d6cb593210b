import { and, eq, gt, ilike, inArray, isNull, lte, not, or, sql, type SQL } from 'drizzle-orm';
import type { LicenseFilter, LicenseStatus } from '@latchkey/contracts';
import { appUsers, licenseKeys } from '../../db/schema/index.ts';
import type { Database } from '../../db/client.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import {
  MAX_LICENSE_KEY_PREFIX_LENGTH,
  MIN_LICENSE_KEY_PREFIX_SEARCH_LENGTH,
  licenseKeyPrefixSearch,
} from './license-key-prefix.ts';
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
 * What a search looks for: a whole key (by its digest), its last four, its first characters
 * (when at least four letters or digits were typed), a note, a username.
 */
interface LicenseSearch {
  digest: string;
  suffix: string;
  prefix: string | null;
  pattern: string;
}

function toLicenseSearch(search: string, serverSecret: string): LicenseSearch {
  return {
    digest: licenseKeyDigest(search, serverSecret),
    suffix: search.toLowerCase(),
    prefix: licenseKeyPrefixSearch(search),
    pattern: containsPattern(search),
  };
}

/**
 * The keys whose kept prefix goes with `prefix` (letters and digits, lower-cased): those whose
 * prefix starts with it, and those whose prefix is shorter but starts it (the owner pasted more
 * of the key than is kept). A range and a few equalities on the (application_id, key_prefix
 * text_pattern_ops) index: the pattern operators compare byte-wise, as that index is ordered,
 * and unlike LIKE with a parameter the planner can use the index without seeing the value. Null
 * for a key without a prefix.
 */
export function licenseKeyPrefixMatch(prefix: string): SQL {
  const shorterPrefixes: string[] = [];
  for (
    let length = MIN_LICENSE_KEY_PREFIX_SEARCH_LENGTH;
    length < Math.min(prefix.length, MAX_LICENSE_KEY_PREFIX_LENGTH + 1);
    length += 1
  ) {
    shorterPrefixes.push(prefix.slice(0, length));
  }
  const conditions: SQL[] = [];
  // A kept prefix has at most MAX_LICENSE_KEY_PREFIX_LENGTH characters: a longer search can
  // only be started by one, never be the start of one.
  if (prefix.length <= MAX_LICENSE_KEY_PREFIX_LENGTH) {
    const next =
      prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    conditions.push(
      sql`(${licenseKeys.keyPrefix} ~>=~ ${prefix} and ${licenseKeys.keyPrefix} ~<~ ${next})`,
    );
  }
  if (shorterPrefixes.length > 0) conditions.push(inArray(licenseKeys.keyPrefix, shorterPrefixes));
  return sql`(${sql.join(conditions, sql` or `)})`;
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
 * with. A search matches a whole key (by its digest), a key's last four characters, its first
 * characters, the note, or the username of whoever used it (those users found once, by the
 * trigram index).
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
        search.prefix === null ? undefined : licenseKeyPrefixMatch(search.prefix),
        ilike(licenseKeys.note, search.pattern),
        inArray(licenseKeys.usedByUserId, matchingUsers),
      )!,
    );
  }
  return and(...conditions)!;
}

/**
 * The keys a search matches, with their creation times, found by five indexed lookups (the
 * digest, the last four, the first characters, the note's trigrams, the holders' usernames'
 * trigrams) instead of a walk. Each lookup leaves out what an earlier one found, so they never
 * overlap and `UNION ALL` needs no de-duplication: a capped count or a page over them stops as
 * soon as it has enough rows. A search too short to name a prefix skips that lookup. At most
 * `limit` rows.
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
  const prefixMatch = search.prefix === null ? null : licenseKeyPrefixMatch(search.prefix);
  // A key without a prefix is not matched by one (rather than unknown, which `not` keeps unknown).
  const notMatchedByPrefix = prefixMatch ? [sql`not coalesce(${prefixMatch}, false)`] : [];
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
        ...notMatchedByPrefix,
        sql`not ${matchedByNote}`,
      ),
    );
  const bySuffix = keys(and(matchedBySuffix, not(matchedByKey))!);
  const byKeyOrSuffix = keys(matchedByKey).unionAll(bySuffix);
  const byKeySuffixOrPrefix = prefixMatch
    ? byKeyOrSuffix.unionAll(keys(and(prefixMatch, not(matchedBySuffix), not(matchedByKey))!))
    : byKeyOrSuffix;
  return byKeySuffixOrPrefix
    .unionAll(
      keys(
        and(
          ilike(licenseKeys.note, search.pattern),
          not(matchedBySuffix),
          not(matchedByKey),
          ...notMatchedByPrefix,
        )!,
      ),
    )
    .unionAll(byHolder)
    .limit(limit)
    .as('matches');
}
