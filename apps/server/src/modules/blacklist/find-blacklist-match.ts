import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
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

/** The order in which a request's parts are reported when several are blocked. */
const checkOrder: BlacklistType[] = ['ip', 'username', 'email', 'hwid'];

/**
 * Whether the request is blocked, and by which of its parts (first in the order IP,
 * username, e-mail, HWID). Only active entries count: the owner's global entries
 * (applicationId null) and this application's. Usernames and e-mails match
 * case-insensitively; IPs are compared normalised (both sides) and HWIDs exactly.
 * Read from the database on every call, so a change applies to the very next request.
 */
export async function findBlacklistMatch({
  ctx,
  input,
}: {
  ctx: { db: Database };
  input: BlacklistProbe;
}): Promise<BlacklistType | null> {
  const lowerValue = sql`lower(${blacklistEntries.value})`;
  const probes: SQL[] = [
    and(eq(blacklistEntries.type, 'ip'), eq(lowerValue, input.ipAddress.toLowerCase()))!,
    and(eq(blacklistEntries.type, 'username'), eq(lowerValue, input.username.toLowerCase()))!,
  ];
  if (input.email) {
    probes.push(
      and(eq(blacklistEntries.type, 'email'), eq(lowerValue, input.email.toLowerCase()))!,
    );
  }
  if (input.hwid) {
    probes.push(
      and(
        eq(blacklistEntries.type, 'hwid'),
        eq(lowerValue, input.hwid.toLowerCase()),
        eq(blacklistEntries.value, input.hwid),
      )!,
    );
  }
  const rows = await ctx.db
    .selectDistinct({ type: blacklistEntries.type })
    .from(blacklistEntries)
    .where(
      and(
        eq(blacklistEntries.ownerAccountId, input.ownerAccountId),
        eq(blacklistEntries.isActive, true),
        or(
          isNull(blacklistEntries.applicationId),
          eq(blacklistEntries.applicationId, input.applicationId),
        ),
        or(...probes),
      ),
    );
  if (rows.length === 0) return null;
  const matched = new Set(rows.map((row) => row.type));
  return checkOrder.find((type) => matched.has(type)) ?? null;
}
