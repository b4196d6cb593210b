import {
  appUserListSchema,
  appUserSchema,
  bulkAppUserResultSchema,
  bulkSkipReasonLabels,
  type BulkAppUserRequest,
  type BulkAppUserResult,
  type AppUser,
  type AppUserListRow,
  type CreateAppUserRequest,
  type UpdateAppUserRequest,
} from '@latchkey/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';
import { appUsersQueryKey } from './owner-query-keys.ts';
import { ConsoleInputError, useOwnerMutation } from './use-owner-mutation.ts';

/** The user list is the one query that retries, twice. */
export const APP_USERS_RETRY_COUNT = 2;

/**
 * A failed user list reads the server's message, else "HTTP {status}", else (network failure,
 * unreadable answer) "Failed to fetch users".
 */
export function toUsersFetchError(error: unknown): Error {
  if (error instanceof ApiError) return new Error(error.serverMessage ?? `HTTP ${error.status}`);
  return new Error('Failed to fetch users');
}

async function fetchAppUsers(
  applicationId: number,
  { page, search }: AppUsersPageRequest,
): Promise<PagedList<AppUserListRow>> {
  try {
    const query = toPageQueryString({ page, search: search.trim() });
    const response = await apiRequest('GET', `/api/applications/${applicationId}/users${query}`);
    return toPagedList(response, appUserListSchema.parse(await response.json()));
  } catch (error) {
    throw toUsersFetchError(error);
  }
}

/** Which page of an application's users, and the search typed (username or e-mail). */
export interface AppUsersPageRequest {
  page: number;
  search: string;
}

/**
 * One page of the end users of one application (the server's default page size); idle while
 * none is selected. The management page also refetches when the window regains focus:
 * 'always', because the console's data never goes stale on its own, and `true` would refetch
 * only stale data. The previous page stays on screen while the next loads.
 */
export function useAppUsers(
  applicationId: number | null,
  {
    refetchOnWindowFocus = false,
    page = 1,
    search = '',
  }: { refetchOnWindowFocus?: boolean } & Partial<AppUsersPageRequest> = {},
) {
  return useQuery({
    queryKey: [...appUsersQueryKey(applicationId ?? 0), { page, search }],
    queryFn: () => fetchAppUsers(applicationId!, { page, search }),
    enabled: applicationId !== null,
    retry: APP_USERS_RETRY_COUNT,
    refetchOnWindowFocus: refetchOnWindowFocus ? 'always' : false,
    placeholderData: keepPreviousData,
  });
}

async function readAppUser(response: Response): Promise<AppUser> {
  return appUserSchema.parse(await response.json());
}

export interface AppUserTarget {
  applicationId: number;
  userId: string;
}

function userUrl({ applicationId, userId }: AppUserTarget, action = ''): string {
  return `/api/applications/${applicationId}/users/${encodeURIComponent(userId)}${action}`;
}

export function useCreateAppUser() {
  return useOwnerMutation({
    mutationFn: async ({
      applicationId,
      user,
    }: {
      applicationId: number | null;
      user: CreateAppUserRequest;
    }) => {
      if (applicationId === null) throw new ConsoleInputError('No application selected');
      return readAppUser(
        await apiRequest('POST', `/api/applications/${applicationId}/users`, user),
      );
    },
    successMessage: 'User created successfully',
    errorMessage: 'Failed to create user',
  });
}

export function useUpdateAppUser() {
  return useOwnerMutation({
    mutationFn: async ({ changes, ...target }: AppUserTarget & { changes: UpdateAppUserRequest }) =>
      readAppUser(await apiRequest('PUT', userUrl(target), changes)),
    successMessage: 'User updated successfully',
    errorMessage: 'Failed to update user',
  });
}

export function usePauseAppUser() {
  return useOwnerMutation({
    mutationFn: async (target: AppUserTarget) =>
      readAppUser(await apiRequest('POST', userUrl(target, '/pause'))),
    successMessage: 'User paused successfully',
    errorMessage: 'Failed to pause user',
  });
}

export function useUnpauseAppUser() {
  return useOwnerMutation({
    mutationFn: async (target: AppUserTarget) =>
      readAppUser(await apiRequest('POST', userUrl(target, '/unpause'))),
    successMessage: 'User unpaused successfully',
    errorMessage: 'Failed to unpause user',
  });
}

/**
 * The dashboard's pause/unpause toggle. Same calls as above, but its toasts speak of a status
 * change ('User status updated successfully').
 */
export function useSetAppUserPaused() {
  return useOwnerMutation({
    mutationFn: async ({ isPaused, ...target }: AppUserTarget & { isPaused: boolean }) =>
      readAppUser(await apiRequest('POST', userUrl(target, isPaused ? '/pause' : '/unpause'))),
    successMessage: 'User status updated successfully',
    errorMessage: 'Failed to update user status',
  });
}

export function useResetAppUserHwid() {
  return useOwnerMutation({
    mutationFn: async (target: AppUserTarget) =>
      readAppUser(await apiRequest('POST', userUrl(target, '/reset-hwid'))),
    successMessage: 'HWID reset successfully',
    errorMessage: 'Failed to reset HWID',
  });
}

export const EMAIL_MARKED_VERIFIED = 'E-mail address marked verified';

/** POST …/verify-email: the owner vouches for the user's address; answers the user. */
export function useMarkAppUserEmailVerified() {
  return useOwnerMutation({
    mutationFn: async (target: AppUserTarget) =>
      readAppUser(await apiRequest('POST', userUrl(target, '/verify-email'))),
    successMessage: EMAIL_MARKED_VERIFIED,
    errorMessage: 'Failed to mark the e-mail address verified',
  });
}

export function useDeleteAppUser() {
  return useOwnerMutation({
    mutationFn: async (target: AppUserTarget) => {
      await apiRequest('DELETE', userUrl(target));
    },
    successMessage: 'User deleted successfully',
    errorMessage: 'Failed to delete user',
  });
}

/** A bulk action on end users, as the confirmation dialog sends it. */
export type BulkAppUserVariables = { applicationId: number } & BulkAppUserRequest;

/**
 * POST /api/applications/{id}/users/bulk: answers once every batch is done, with what was done
 * and what was skipped and why; the toast says the counts, and the lists are re-read after.
 */
export function useBulkAppUserAction() {
  return useOwnerMutation({
    mutationFn: async ({ applicationId, ...body }: BulkAppUserVariables) => {
      const response = await apiRequest(
        'POST',
        `/api/applications/${applicationId}/users/bulk`,
        body,
      );
      return bulkAppUserResultSchema.parse(await response.json());
    },
    successMessage: describeBulkResult,
    errorMessage: 'Failed to update users',
  });
}

const usersCount = (count: number) =>
  `${count.toLocaleString('en-US')} user${count === 1 ? '' : 's'}`;

/** "2 users done, 1 skipped (already paused: 1)". */
export function describeBulkResult(result: BulkAppUserResult): string {
  const done = `${usersCount(result.done)} ${result.action === 'delete' ? 'deleted' : 'updated'}`;
  if (result.skipped === 0) return done;
  const reasons = result.skippedReasons
    .map(({ reason, count }) => `${bulkSkipReasonLabels[reason]}: ${count.toLocaleString('en-US')}`)
    .join(', ');
  return `${done}, ${result.skipped.toLocaleString('en-US')} skipped (${reasons})`;
}
