import { activityEventsMatching, type ActivityLogFilter } from '@latchkey/contracts';
import { and, eq, exists, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { activityLogs, applications, appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';

/**
 * The event and search filters of the activity log (spec doc 2 §2), on the columns of
 * `activity_logs`. The search looks at the username as sent and as the end user is named
 * now, the IP address, and the event by name or label ('Login Failed' finds login_failed).
 * An event filter walks the (application_id, event, created_at) index.
 */
export function activityLogContentWhere(
  ctx: OwnerContext,
  filter: Pick<ActivityLogFilter, 'event' | 'search'>,
): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.event) conditions.push(eq(activityLogs.event, filter.event));
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    const events = activityEventsMatching(filter.search);
    conditions.push(
      or(
        ilike(activityLogs.username, pattern),
        ilike(activityLogs.ipAddress, pattern),
        events.length > 0 ? inArray(activityLogs.event, events) : undefined,
        exists(
          ctx.db
            .select({ one: appUsers.id })
            .from(appUsers)
            .where(and(eq(appUsers.id, activityLogs.appUserId), ilike(appUsers.username, pattern))),
        ),
      )!,
    );
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * Every filter, for statements on `activity_logs` alone (counts, stats). The owner's scope is
 * part of the condition itself, so no caller can forget it; an applicationId must already
 * have been checked as the owner's (a 404 otherwise).
 */
export function activityLogFilterWhere(ctx: OwnerContext, filter: ActivityLogFilter): SQL {
  return and(
    inArray(
      activityLogs.applicationId,
      ctx.db
        .select({ id: applications.id })
        .from(applications)
        .where(eq(applications.ownerAccountId, ctx.account.id)),
    ),
    filter.applicationId === undefined
      ? undefined
      : eq(activityLogs.applicationId, filter.applicationId),
    activityLogContentWhere(ctx, filter),
  )!;
}
