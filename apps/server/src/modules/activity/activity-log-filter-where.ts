import {
  activityEventsMatching,
  SEARCH_COUNT_LIMIT,
  type ActivityLogFilter,
} from '@latchkey/contracts';
import { and, eq, ilike, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { activityLogs, activityLogTerms, appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { ownedApplicationIds } from '../../ownership/load-owned-application.ts';
import { foldCounterDeltas } from './fold-counter-deltas.ts';

/** What a search matches outside the log, found before the log is read. */
export interface MatchingTerms {
  /** The usernames (as sent) in the filtered logs that contain the search. */
  usernames: string[];
  /** The addresses in the filtered logs that contain it. */
  ipAddresses: string[];
  /** The end users whose current name contains it; null when more than the limit do. */
  userIds: string[] | null;
}

/**
 * The usernames and addresses of the filtered applications' logs that contain the search,
 * from activity_log_terms (one row per name, with a trigram index, kept by the counter fold),
 * and the end users named so now; or null when more than SEARCH_COUNT_LIMIT usernames or
 * addresses do. Each term has at least one row in the log, so null means more rows match the
 * search than the limit, before any other filter. The two lookups (a trigram index each) run
 * side by side.
 */
export async function findMatchingTerms(
  ctx: OwnerContext,
  filter: Pick<ActivityLogFilter, 'applicationId'>,
  search: string,
): Promise<MatchingTerms | null> {
  // The terms of the rows written so far are still in the counters' queue until a fold.
  await foldCounterDeltas(ctx.db);
  const pattern = containsPattern(search);
  // Both fields in one statement: reaching its limit means one of them holds more than
  // SEARCH_COUNT_LIMIT.
  const termLimit = 2 * (SEARCH_COUNT_LIMIT + 1);
  const [terms, users] = await Promise.all([
    ctx.db
      .select({ field: activityLogTerms.field, value: activityLogTerms.value })
      .from(activityLogTerms)
      .where(
        and(
          inArray(activityLogTerms.applicationId, ownedApplicationIds(ctx, filter.applicationId)),
          ilike(activityLogTerms.value, pattern),
        ),
      )
      .limit(termLimit),
    matchingUsers(ctx, filter, pattern).limit(SEARCH_COUNT_LIMIT + 1),
  ]);
  if (terms.length === termLimit) return null;
  const found: MatchingTerms = {
    usernames: [],
    ipAddresses: [],
    userIds: users.length > SEARCH_COUNT_LIMIT ? null : users.map((user) => user.id),
  };
  for (const { field, value } of terms) {
    (field === 'username' ? found.usernames : found.ipAddresses).push(value);
  }
  const isOver = (values: string[]) => values.length > SEARCH_COUNT_LIMIT;
  return isOver(found.usernames) || isOver(found.ipAddresses) ? null : found;
}

/** The filtered applications' end users whose current name matches the pattern. */
function matchingUsers(
  ctx: OwnerContext,
  filter: Pick<ActivityLogFilter, 'applicationId'>,
  pattern: string,
) {
  return ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(
      and(
        inArray(appUsers.applicationId, ownedApplicationIds(ctx, filter.applicationId)),
        ilike(appUsers.username, pattern),
      ),
    )
    .$dynamic();
}

/**
 * The activity log's search: the username as sent and as the end user is named now, the IP
 * address, and the event by name or label ('Login Failed' finds login_failed).
 *
 * Given the matching terms, every arm can be read from an index, so PostgreSQL answers the OR
 * with a bitmap of the matching rows: the (application_id, username) and
 * (application_id, ip_address) btrees for the terms, the (application_id, event, created_at)
 * index, and the app_user_id index for the end users whose current name matches (an array,
 * not an IN: a subquery inside an OR could only be checked row by row). Without them (a search
 * too broad for a list of terms), the username and address are matched as text, row by row:
 * for a walk of the log that stops at a page.
 */
function activityLogSearchWhere(
  ctx: OwnerContext,
  filter: Pick<ActivityLogFilter, 'applicationId'>,
  search: string,
  terms: MatchingTerms | null,
): SQL {
  const pattern = containsPattern(search);
  const events = activityEventsMatching(search);
  const isOneOf = (column: SQLWrapper, values: string[], type: 'text' | 'uuid') =>
    values.length > 0 ? sql`${column} = any(${sql.param(values)}::${sql.raw(type)}[])` : undefined;
  // No term, event or end user matching leaves no arm: then no row matches.
  return (
    or(
      ...(terms
        ? [
            isOneOf(activityLogs.username, terms.usernames, 'text'),
            isOneOf(activityLogs.ipAddress, terms.ipAddresses, 'text'),
          ]
        : [ilike(activityLogs.username, pattern), ilike(activityLogs.ipAddress, pattern)]),
      events.length > 0 ? inArray(activityLogs.event, events) : undefined,
      terms?.userIds
        ? isOneOf(activityLogs.appUserId, terms.userIds, 'uuid')
        : sql`${activityLogs.appUserId} = any(array(${matchingUsers(ctx, filter, pattern)}))`,
    ) ?? sql`false`
  );
}

/**
 * The event and search filters of the activity log, on the columns of `activity_logs`. An
 * event filter walks the (application_id, event, created_at) index. `terms` are the search's
 * (findMatchingTerms); null matches the text row by row.
 */
export function activityLogContentWhere(
  ctx: OwnerContext,
  filter: Pick<ActivityLogFilter, 'applicationId' | 'event' | 'search'>,
  terms: MatchingTerms | null,
): SQL | undefined {
  return and(
    filter.event ? eq(activityLogs.event, filter.event) : undefined,
    filter.search ? activityLogSearchWhere(ctx, filter, filter.search, terms) : undefined,
  );
}

/**
 * Every filter, for statements on `activity_logs` alone (counts, stats). The owner's scope is
 * part of the condition itself, so no caller can forget it; an applicationId must already
 * have been checked as the owner's (a 404 otherwise).
 */
export function activityLogFilterWhere(
  ctx: OwnerContext,
  filter: ActivityLogFilter,
  terms: MatchingTerms | null,
): SQL {
  // An array rather than IN: the applications' ids can then lead the log's composite indexes
  // (with IN, they come from a join, and a search of every application read each partition).
  return and(
    sql`${activityLogs.applicationId} = any(array(${ownedApplicationIds(ctx, filter.applicationId)}))`,
    activityLogContentWhere(ctx, filter, terms),
  )!;
}

/**
 * The condition for counting a search's matches (with every other filter) from the indexes,
 * or null when the search alone is known to match more than SEARCH_COUNT_LIMIT rows (more
 * terms match than that). With an event filter too, that is not known: the matches are then
 * counted by text, row by row along the event's index, as far as the limit.
 */
export async function searchMatchesWhere(
  ctx: OwnerContext,
  filter: ActivityLogFilter & { search: string },
): Promise<SQL | null> {
  const terms = await findMatchingTerms(ctx, filter, filter.search);
  if (!terms && !filter.event) return null;
  return activityLogFilterWhere(ctx, filter, terms);
}
