import { activityEventsMatching, type ActivityLogFilter } from '@latchkey/contracts';
import { and, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { activityLogs, appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { ownedApplicationIds } from '../../ownership/load-owned-application.ts';

/**
 * The activity log's search: the username as sent and as the end user is named
 * now, the IP address, and the event by name or label ('Login Failed' finds login_failed).
 * Every arm can be read from an index, so PostgreSQL answers the OR with a bitmap of the
 * matching rows instead of reading the whole log: the trigram indexes of username and
 * address, the (application_id, event, created_at) index, and the app_user_id index for the
 * ids of the end users whose current name matches (an array, not an IN: a subquery inside an
 * OR could only be checked row by row).
 */
function activityLogSearchWhere(
  ctx: OwnerContext,
  filter: Pick<ActivityLogFilter, 'applicationId'>,
  search: string,
): SQL {
  const pattern = containsPattern(search);
  const events = activityEventsMatching(search);
  const matchingUserIds = ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(
      and(
        inArray(appUsers.applicationId, ownedApplicationIds(ctx, filter.applicationId)),
        ilike(appUsers.username, pattern),
      ),
    );
  return or(
    ilike(activityLogs.username, pattern),
    ilike(activityLogs.ipAddress, pattern),
    events.length > 0 ? inArray(activityLogs.event, events) : undefined,
    sql`${activityLogs.appUserId} = any(array(${matchingUserIds}))`,
  )!;
}

/**
 * The event and search filters of the activity log, on the columns of
 * `activity_logs`. An event filter walks the (application_id, event, created_at) index.
 */
export function activityLogContentWhere(
  ctx: OwnerContext,
  filter: Pick<ActivityLogFilter, 'applicationId' | 'event' | 'search'>,
): SQL | undefined {
  return and(
    filter.event ? eq(activityLogs.event, filter.event) : undefined,
    filter.search ? activityLogSearchWhere(ctx, filter, filter.search) : undefined,
  );
}

/**
 * Every filter, for statements on `activity_logs` alone (counts, stats). The owner's scope is
 * part of the condition itself, so no caller can forget it; an applicationId must already
 * have been checked as the owner's (a 404 otherwise).
 */
export function activityLogFilterWhere(ctx: OwnerContext, filter: ActivityLogFilter): SQL {
  return and(
    inArray(activityLogs.applicationId, ownedApplicationIds(ctx, filter.applicationId)),
    activityLogContentWhere(ctx, filter),
  )!;
}
