import {
  adminUserListSchema,
  adminUserSchema,
  auditEntryListSchema,
  siteOverviewListSchema,
  type AdminUser,
  type UpdateAdminUserRequest,
} from '@latchkey/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type ResponseParser } from '@/lib/api.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';
import { CURRENT_USER_QUERY_KEY } from './owner-query-keys.ts';
import { getErrorToastMessage } from './use-owner-mutation.ts';
import { toast } from './use-toast.ts';

/** Everything of the admin API sits under this key, so one change refreshes every admin list. */
export const SITE_ADMIN_QUERY_KEY = ['/api/admin'] as const;

// The auth provider's key, written out: importing it would pull Firebase into this page's chunk.

export const USERS_FETCH_ERROR = 'Failed to load users. Please try again later.';

async function fetchPage<Row>(
  path: string,
  listSchema: ResponseParser<Row[]>,
  query: Record<string, string | number | undefined>,
): Promise<PagedList<Row>> {
  const response = await apiRequest('GET', `${path}${toPageQueryString(query)}`);
  return toPagedList(response, listSchema.parse(await response.json()));
}

interface SearchPageRequest {
  page: number;
  search: string;
  /** Only accounts allowed to read it ask at all. */
  isEnabled: boolean;
}

/** One page of the site's accounts, searched on the server (GET /api/admin/users). */
export function useSiteAccounts({ page, search, isEnabled }: SearchPageRequest) {
  return useQuery({
    queryKey: [...SITE_ADMIN_QUERY_KEY, 'users', { page, search }],
    queryFn: () =>
      fetchPage('/api/admin/users', adminUserListSchema, { page, search: search.trim() }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** One page of the read-only site overview, counts per account (GET /api/admin/overview). */
export function useSiteOverview({ page, search, isEnabled }: SearchPageRequest) {
  return useQuery({
    queryKey: [...SITE_ADMIN_QUERY_KEY, 'overview', { page, search }],
    queryFn: () =>
      fetchPage('/api/admin/overview', siteOverviewListSchema, { page, search: search.trim() }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

/** One page of the audit trail, newest first (GET /api/admin/audit). */
export function useAuditTrail({ page, search, isEnabled }: SearchPageRequest) {
  return useQuery({
    queryKey: [...SITE_ADMIN_QUERY_KEY, 'audit', { page, search }],
    queryFn: () =>
      fetchPage('/api/admin/audit', auditEntryListSchema, { page, search: search.trim() }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * The admin lists are re-read after every change, also after a refusal (someone else may have
 * changed the account); the current user too, whose own role or permissions may have changed.
 */
function useRefreshAfterAdminChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: SITE_ADMIN_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY }),
    ]);
}

/** PATCH /api/admin/users/:id: role, permissions and the active flag saved as one update. */
export function useUpdateSiteAccount() {
  const refresh = useRefreshAfterAdminChange();
  return useMutation({
    mutationFn: async ({
      accountId,
      changes,
    }: {
      accountId: string;
      changes: UpdateAdminUserRequest;
    }): Promise<AdminUser> => {
      try {
        const response = await apiRequest('PATCH', `/api/admin/users/${accountId}`, changes);
        return adminUserSchema.parse(await response.json());
      } finally {
        await refresh();
      }
    },
    onSuccess: () => {
      toast({
        title: 'User Updated',
        description: 'User permissions and role have been updated successfully.',
      });
    },
    onError: (error) => {
      toast({
        title: 'Update Failed',
        description: getErrorToastMessage(error, 'Failed to update user permissions.'),
        variant: 'destructive',
      });
    },
  });
}

/** DELETE /api/admin/users/:id: the account and its whole environment. */
export function useDeleteSiteAccount() {
  const refresh = useRefreshAfterAdminChange();
  return useMutation({
    mutationFn: async (accountId: string) => {
      try {
        await apiRequest('DELETE', `/api/admin/users/${accountId}`);
      } finally {
        await refresh();
      }
    },
    onSuccess: () => {
      toast({ title: 'User Deleted', description: 'User has been removed from the system.' });
    },
    onError: (error) => {
      toast({
        title: 'Delete Failed',
        description: getErrorToastMessage(error, 'Failed to delete user.'),
        variant: 'destructive',
      });
    },
  });
}
