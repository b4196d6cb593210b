import {
  blacklistEntryListSchema,
  blacklistEntrySchema,
  blacklistTypes,
  type BlacklistEntry,
  type BlacklistType,
  type CreateBlacklistEntryRequest,
} from '@latchkey/contracts';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';
import { useListMutation } from './use-owner-mutation.ts';

export const BLACKLIST_QUERY_KEY = ['/api/blacklist'] as const;

/** Which page of the blacklist, and the search typed (value or reason). */
export interface BlacklistPageRequest {
  page: number;
  search: string;
}

async function fetchBlacklistPage(
  query: Record<string, string | number | undefined>,
): Promise<PagedList<BlacklistEntry>> {
  const response = await apiRequest('GET', `/api/blacklist${toPageQueryString(query)}`);
  return toPagedList(response, blacklistEntryListSchema.parse(await response.json()));
}

/**
 * One page of the signed-in owner's blacklist (GET /api/blacklist), global and
 * per-application entries; the previous page stays on screen while the next loads.
 */
export function useBlacklist({ page = 1, search = '' }: Partial<BlacklistPageRequest> = {}) {
  return useQuery({
    queryKey: [...BLACKLIST_QUERY_KEY, { page, search }],
    queryFn: () => fetchBlacklistPage({ page, search: search.trim() }),
    placeholderData: keepPreviousData,
  });
}

/**
 * Active entries per type, for the count cards: the list is one page, so each count is
 * the X-Total-Count of a one-row page of that type. Under BLACKLIST_QUERY_KEY, so every
 * blacklist change refreshes them too.
 */
export function useBlacklistCounts() {
  return useQueries({
    queries: blacklistTypes.map((type) => ({
      queryKey: [...BLACKLIST_QUERY_KEY, 'count', type],
      queryFn: () => fetchBlacklistPage({ type, isActive: 'true', pageSize: 1 }),
    })),
    combine: (results) => {
      const isError = results.some((result) => result.isError);
      return {
        // A count whose latest read failed may be stale: all are shown as unknown then.
        counts:
          !isError && results.every((result) => result.data)
            ? (Object.fromEntries(
                blacklistTypes.map((type, index) => [type, results[index]!.data!.totalCount]),
              ) as Record<BlacklistType, number>)
            : undefined,
        isPending: results.some((result) => result.isPending),
        isError,
        isFetching: results.some((result) => result.isFetching),
        refetch: () => {
          for (const result of results) if (result.isError) void result.refetch();
        },
      };
    },
  });
}

/** A change of this list, with the owner toasts; the list is re-read as it settles. */
function useBlacklistMutation<TVariables, TData>(
  options: Omit<Parameters<typeof useListMutation<TVariables, TData>>[0], 'listQueryKey'>,
) {
  return useListMutation({ listQueryKey: BLACKLIST_QUERY_KEY, ...options });
}

export function useCreateBlacklistEntry() {
  return useBlacklistMutation({
    mutationFn: async (input: CreateBlacklistEntryRequest) =>
      blacklistEntrySchema.parse(await (await apiRequest('POST', '/api/blacklist', input)).json()),
    successMessage: 'Blacklist entry created successfully',
    errorMessage: 'Failed to create blacklist entry',
  });
}

export function useDeleteBlacklistEntry() {
  return useBlacklistMutation({
    mutationFn: async (entryId: number) => {
      await apiRequest('DELETE', `/api/blacklist/${entryId}`);
    },
    successMessage: 'Blacklist entry deleted successfully',
    errorMessage: 'Failed to delete blacklist entry',
  });
}
