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

export function applicationLicensesQueryKey(applicationId: number) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'licenses'] as const;
}

export function userSubscriptionsQueryKey(applicationId: number, userId: string) {
  return [...appUsersQueryKey(applicationId), userId, 'subscriptions'] as const;
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
