import {
  blacklistEntryListSchema,
  blacklistEntrySchema,
  type CreateBlacklistEntryRequest,
} from '@latchkey/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '@/lib/api.ts';
import { useOwnerMutation } from './use-owner-mutation.ts';

export const BLACKLIST_QUERY_KEY = ['/api/blacklist'] as const;

/** The signed-in owner's blacklist (GET /api/blacklist), global and per-application entries. */
export function useBlacklist() {
  return useQuery({
    queryKey: BLACKLIST_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: blacklistEntryListSchema }),
  });
}

/**
 * A blacklist change with the owner toasts. The list is re-read before the mutation settles
 * (spec doc 2 §4: the list refreshes after its mutations), also after a failure, since a 404
 * or a duplicate usually means the list changed elsewhere; so a dialog closes onto the new list.
 */
function useBlacklistMutation<TVariables, TData>({
  mutationFn,
  successMessage,
  errorMessage,
}: {
  mutationFn: (variables: TVariables) => Promise<TData>;
  successMessage: string;
  errorMessage: string;
}) {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async (variables: TVariables) => {
      try {
        return await mutationFn(variables);
      } finally {
        await queryClient.invalidateQueries({ queryKey: BLACKLIST_QUERY_KEY });
      }
    },
    successMessage,
    errorMessage,
  });
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
