import {
  apiTokenListSchema,
  createdApiTokenSchema,
  type CreateApiTokenRequest,
} from '@latchkey/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '@/lib/api.ts';
import { getErrorToastMessage } from './use-owner-mutation.ts';
import { toast } from './use-toast.ts';

/** The signed-in account's management API tokens. */
export const API_TOKENS_QUERY_KEY = ['/api/api-tokens'] as const;

export const API_TOKENS_FETCH_ERROR = 'Failed to fetch API tokens';

/**
 * GET /api/api-tokens, newest first, re-read on every visit of the page (a token's last use
 * changes with every call a script makes). Disabled for an account without Manage API Tokens,
 * so it asks for nothing the server would refuse.
 */
export function useApiTokens({ isEnabled = true } = {}) {
  return useQuery({
    queryKey: API_TOKENS_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: apiTokenListSchema }),
    refetchOnMount: 'always',
    enabled: isEnabled,
  });
}

/**
 * A change of the token list, with the owner toasts ('Success' / destructive 'Error'); the
 * list is re-read before the mutation settles, also after a failure (a 404 means the list
 * changed elsewhere). Unlike useListMutation it leaves the application lists alone, which a
 * token does not change. gcTime 0: a created token's answer carries its text, and nothing
 * should keep it once the dialog that shows it has let go (the cache would for 5 minutes).
 */
function useApiTokenMutation<TVariables, TData>({
  mutationFn,
  successMessage,
  errorMessage,
}: {
  mutationFn: (variables: TVariables) => Promise<TData>;
  successMessage: string;
  errorMessage: string;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: TVariables) => {
      try {
        return await mutationFn(variables);
      } finally {
        await queryClient.invalidateQueries({ queryKey: API_TOKENS_QUERY_KEY });
      }
    },
    gcTime: 0,
    onSuccess: () => {
      toast({ title: 'Success', description: successMessage });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: getErrorToastMessage(error, errorMessage),
        variant: 'destructive',
      });
    },
  });
}

/** POST /api/api-tokens: the answer is the only time the token's text is ever sent. */
export function useCreateApiToken() {
  return useApiTokenMutation({
    mutationFn: async (input: CreateApiTokenRequest) =>
      createdApiTokenSchema.parse(
        await (await apiRequest('POST', '/api/api-tokens', input)).json(),
      ),
    successMessage: 'API token created successfully',
    errorMessage: 'Failed to create API token',
  });
}

/** DELETE /api/api-tokens/:id: every call made with the token is refused from then on. */
export function useRevokeApiToken() {
  return useApiTokenMutation({
    mutationFn: async (tokenId: string) => {
      await apiRequest('DELETE', `/api/api-tokens/${tokenId}`);
    },
    successMessage: 'API token revoked successfully',
    errorMessage: 'Failed to revoke API token',
  });
}
