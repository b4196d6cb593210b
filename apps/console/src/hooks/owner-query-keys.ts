import type { ActivityChartRange } from '@latchkey/contracts';

/** The signed-in owner's profile: whether the server has a session, and for whom. */
export const CURRENT_USER_QUERY_KEY = ['/api/auth/user'] as const;

export const DASHBOARD_STATS_QUERY_KEY = ['/api/dashboard/stats'] as const;

/** The owner's shop orders and revenue per currency, today and over thirty days. */
export const SHOP_SALES_QUERY_KEY = ['/api/dashboard/sales'] as const;

/**
 * Query keys of the owner's applications. Everything about applications sits under the list's
 * URL, so invalidating APPLICATIONS_QUERY_KEY refreshes the list, every user list and every
 * application's stats at once, as every mutation must.
 */
export const APPLICATIONS_QUERY_KEY = ['/api/applications'] as const;

export function appUsersQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'users'] as const;
}

export function applicationStatsQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'stats'] as const;
}

export function applicationPlansQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'plans'] as const;
}

export function applicationSeatsQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'seats'] as const;
}

export function applicationLicensesQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'licenses'] as const;
}

export function userSubscriptionsQueryKey(applicationId: number, userId: string) {
  return [...appUsersQueryKey(applicationId), userId, 'subscriptions'] as const;
}

export function userMetersQueryKey(applicationId: number, userId: string) {
  return [...appUsersQueryKey(applicationId), userId, 'meters'] as const;
}

export function userDevicesQueryKey(applicationId: number, userId: string) {
  return [...appUsersQueryKey(applicationId), userId, 'devices'] as const;
}

export function applicationVariablesQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'variables'] as const;
}

export function userVariablesQueryKey(applicationId: number, userId: string) {
  return [...appUsersQueryKey(applicationId), userId, 'variables'] as const;
}

export function applicationFilesQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'files'] as const;
}

export function applicationImportQueryKey(applicationId: number, importId: string) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'imports', importId] as const;
}

export function applicationShopConnectionsQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'shop-connections'] as const;
}

export function applicationShopOrdersQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'orders'] as const;
}

/** The range a chart shows until the owner picks another. */
export const DEFAULT_ACTIVITY_CHART_RANGE: ActivityChartRange = '24h';

/** One application's chart, or (null) all of the owner's applications for the dashboard. */
export function activityChartUrl(applicationId: number | null, range: ActivityChartRange): string {
  const path =
    applicationId === null
      ? '/api/dashboard/activity-chart'
      : `/api/applications/${applicationId}/activity-chart`;
  return `${path}?range=${range}`;
}
