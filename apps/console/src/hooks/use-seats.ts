import { deletedResponseSchema, seatLeaseListSchema } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { applicationSeatsQueryKey } from './owner-query-keys.ts';
import { useListMutation } from './use-owner-mutation.ts';

export const SEATS_FETCH_ERROR = 'Failed to fetch seats';

function seatsUrl(applicationId: number, leaseId?: string): string {
  const url = `/api/applications/${applicationId}/seats`;
  return leaseId === undefined ? url : `${url}/${encodeURIComponent(leaseId)}`;
}

/**
 * The floating seats in use now (GET /api/applications/:id/seats): a lease lapses on its own,
 * so the list is read again every minute while it is shown.
 */
export function useSeats(applicationId: number, { isEnabled = true } = {}) {
  return useQuery({
    queryKey: applicationSeatsQueryKey(applicationId),
    queryFn: async () =>
      seatLeaseListSchema.parse(await (await apiRequest('GET', seatsUrl(applicationId))).json()),
    enabled: isEnabled,
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
