import { isIP } from 'node:net';
import { and, eq, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { BlacklistType } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { blacklistEntries, isBlacklistIpRange } from '../../db/schema/index.ts';

/** What a login or registration presents to the blacklist; null parts are not checked. */
export interface BlacklistProbe {
  ownerAccountId: string;
  applicationId: number;
  ipAddress: string;
  username: string;
  email: string | null;
  hwid: string | null;
}

export interface BlacklistMatcher {
  /** Which part of the request is blocked (first of IP, username, e-mail, HWID), or null. */
  find(probe: BlacklistProbe): Promise<BlacklistType | null>;
}

/** The order in which a request's parts are reported when several are blocked. */
const checkOrder: BlacklistType[] = ['ip', 'username', 'email', 'hwid'];

/** The part reported when entries of these types matched (the first in check order). */
export function firstBlockedPart(matchedTypes: readonly string[] | null): BlacklistType | null {
  if (!matchedTypes || matchedTypes.length === 0) return null;
  return checkOrder.find((type) => matchedTypes.includes(type)) ?? null;
}

/**
 * The rule, in one place: the active entries of the owner that are global (applicationId
 * null) or this application's, and match one of the request's parts. Usernames and e-mails
 * match case-insensitively; IPs are compared normalised (both sides) and HWIDs exactly
 * (`hwidLower` only lets the index on lower(value) find them). It reads the (owner, type,
 * lower(value)) index. An IP entry with a `/` is a CIDR range (stored as its network
 * address) holding the client's address when PostgreSQL's `<<=` says so; those entries are
 * read from their own partial index, so an owner without ranges pays one probe of an empty
 * index, and exact addresses keep their point lookup. The request's parts are placeholders filled by
 * blacklistProbeParameters, except the e-mail, which the caller supplies already
 * lower-cased (a placeholder, or the e-mail of a user found in the same statement). A null
 * part compares as unknown: it never matches.
 */
export function blacklistMatchCondition(email: SQLWrapper): SQL {
  const lowerValue = sql`lower(${blacklistEntries.value})`;
  const part = (name: keyof ReturnType<typeof blacklistProbeParameters>) => sql.placeholder(name);
  return and(
    eq(blacklistEntries.ownerAccountId, part('ownerAccountId')),
    eq(blacklistEntries.isActive, true),
    or(
      isNull(blacklistEntries.applicationId),
      eq(blacklistEntries.applicationId, part('applicationId')),
    ),
    or(
      and(eq(blacklistEntries.type, 'ip'), eq(lowerValue, part('ip'))),
      and(
        isBlacklistIpRange(blacklistEntries),
        // The case keeps the cast away from entries that are not ranges, whatever order the
        // planner evaluates the conditions in.
        sql`case when ${isBlacklistIpRange(blacklistEntries)}
          then ${part('ipAddress')}::inet <<= ${blacklistEntries.value}::cidr end`,
      ),
      and(eq(blacklistEntries.type, 'username'), eq(lowerValue, part('username'))),
      and(eq(blacklistEntries.type, 'email'), eq(lowerValue, email)),
      and(
        eq(blacklistEntries.type, 'hwid'),
        eq(lowerValue, part('hwidLower')),
        eq(blacklistEntries.value, part('hwid')),
      ),
    ),
  )!;
}

/** A probe's parts as the parameters blacklistMatchCondition's placeholders name. */
export function blacklistProbeParameters(probe: Omit<BlacklistProbe, 'email'>) {
  return {
    ownerAccountId: probe.ownerAccountId,
    applicationId: probe.applicationId,
    ip: probe.ipAddress.toLowerCase(),
    // Only an address PostgreSQL's inet reads (no zone id, not empty) is compared with ranges:
    // anything else would fail the cast and the whole request with it.
    ipAddress:
      isIP(probe.ipAddress) !== 0 && !probe.ipAddress.includes('%') ? probe.ipAddress : null,
    username: probe.username.toLowerCase(),
    hwidLower: probe.hwid?.toLowerCase() ?? null,
    hwid: probe.hwid,
  };
}

/**
 * Whether a request is blocked, read from the database on every call (one prepared
 * statement), so a change applies to the very next request. Login asks the same question
 * in the statement that finds its user (login-statements.ts), saving a round trip.
 */
export function createBlacklistMatcher(db: Database): BlacklistMatcher {
  const matching = db
    .selectDistinct({ type: blacklistEntries.type })
    .from(blacklistEntries)
    .where(blacklistMatchCondition(sql.placeholder('email')))
    .prepare('blacklist_match');

  return {
    async find(probe) {
      const rows = await matching.execute({
        ...blacklistProbeParameters(probe),
        email: probe.email?.toLowerCase() ?? null,
      });
      return firstBlockedPart(rows.map((row) => row.type));
    },
  };
}
