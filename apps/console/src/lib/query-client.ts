import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api.ts';

/**
 * The client defaults: data is fetched once and refreshed only when a mutation invalidates it,
 * so nothing polls or refetches behind the user's back.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();
