import { currentUserSchema } from '@latchkey/contracts';
import { getQueryFn } from '@/lib/api.ts';
import { queryClient } from '@/lib/query-client.ts';
import { CURRENT_USER_QUERY_KEY } from './auth-provider.tsx';

/**
 * Asks the server for the signed-in owner's profile before Firebase has restored its user: the
 * profile the authentication state waits for is then already there (or already refused, which
 * starts the same session recovery as a refusal found later).
 */
export function prefetchCurrentUser(): Promise<void> {
  return queryClient.prefetchQuery({
    queryKey: CURRENT_USER_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: currentUserSchema }),
  });
}
