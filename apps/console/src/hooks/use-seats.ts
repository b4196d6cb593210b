import { deletedResponseSchema, seatLeaseListSchema, type SeatLease } from '@latchkey/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';
import { applicationSeatsQueryKey } from './owner-query-keys.ts';
import { useListMutation } from './use-owner-mutation.ts';

export const SEATS_FETCH_ERROR = 'Failed to fetch seats';

function seatsUrl(applicationId: number, leaseId?: string): string {
  const url = `/api/applications/${applicationId}/seats`;
  return leaseId === undefined ? url : `${url}/${encodeURIComponent(leaseId)}`;
}

export const SEATS_PAGE_SIZE = 50;

/**
 * One page of the floating seats in use now (GET /api/applications/:id/seats), searched by
 * holder or HWID: a lease lapses on its own, so the page is read again every minute while it is
 * shown, and the page shown stays while the next loads.
 */
export function useSeats(
  applicationId: number,
  { page, search, isEnabled = true }: { page: number; search: string; isEnabled?: boolean },
) {
  return useQuery({
    queryKey: [...applicationSeatsQueryKey(applicationId), { page, search }],
    queryFn: async (): Promise<PagedList<SeatLease>> => {
      const query = toPageQueryString({ page, pageSize: SEATS_PAGE_SIZE, search: search.trim() });
      const response = await apiRequest('GET', `${seatsUrl(applicationId)}${query}`);
      return toPagedList(response, seatLeaseListSchema.parse(await response.json()));
    },
    enabled: isEnabled,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

/** Frees a seat (its session ends with it); the list is re-read as it settles. */
export function useFreeSeat(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationSeatsQueryKey(applicationId),
    mutationFn: async (leaseId: string) =>
      deletedResponseSchema.parse(
        await (await apiRequest('DELETE', seatsUrl(applicationId, leaseId))).json(),
      ),
    successMessage: 'Seat freed successfully',
    errorMessage: 'Failed to free seat',
  });
}
