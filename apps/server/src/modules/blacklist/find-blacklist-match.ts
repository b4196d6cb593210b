import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { BlacklistType } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { blacklistEntries } from '../../db/schema/index.ts';

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

/**
 * Whether a request is blocked. Only active entries count: the owner's global entries
 * (applicationId null) and this application's. Usernames and e-mails match
 * case-insensitively; IPs are compared normalised (both sides) and HWIDs exactly. Read from
 * the database on every call (one prepared statement on the (owner, type, lower(value))
 * index), so a change applies to the very next request.
 */
export function createBlacklistMatcher(db: Database): BlacklistMatcher {
  const lowerValue = sql`lower(${blacklistEntries.value})`;
  const placeholder = (name: string) => sql.placeholder(name);
  const matching = db
    .selectDistinct({ type: blacklistEntries.type })
    .from(blacklistEntries)
    .where(
      and(
        eq(blacklistEntries.ownerAccountId, placeholder('ownerAccountId')),
        eq(blacklistEntries.isActive, true),
        or(
          isNull(blacklistEntries.applicationId),
          eq(blacklistEntries.applicationId, placeholder('applicationId')),
        ),
        // A null parameter (no e-mail, no HWID) compares as unknown: that part never matches.
        or(
          and(eq(blacklistEntries.type, 'ip'), eq(lowerValue, placeholder('ip'))),
          and(eq(blacklistEntries.type, 'username'), eq(lowerValue, placeholder('username'))),
          and(eq(blacklistEntries.type, 'email'), eq(lowerValue, placeholder('email'))),
          and(
            eq(blacklistEntries.type, 'hwid'),
            eq(lowerValue, placeholder('hwidLower')),
            eq(blacklistEntries.value, placeholder('hwid')),
          ),
        ),
      ),
    )
    .prepare('blacklist_match');

  return {
    async find(probe) {
      const rows = await matching.execute({
        ownerAccountId: probe.ownerAccountId,
        applicationId: probe.applicationId,
        ip: probe.ipAddress.toLowerCase(),
        username: probe.username.toLowerCase(),
        email: probe.email?.toLowerCase() ?? null,
        hwidLower: probe.hwid?.toLowerCase() ?? null,
        hwid: probe.hwid,
      });
      if (rows.length === 0) return null;
      const matched = new Set(rows.map((row) => row.type));
      return checkOrder.find((type) => matched.has(type)) ?? null;
    },
  };
}
