import type { RuntimeConfig } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { fetchRuntimeConfig } from '@/lib/runtime-config.ts';
import { RUNTIME_CONFIG_QUERY_KEY } from './use-end-user-password-min-length.ts';

/** Where this server's end-user mail goes (GET /api/config); undefined until it is known. */
export function useMailDelivery(): RuntimeConfig['mailDelivery'] | undefined {
  const { data } = useQuery({
    queryKey: RUNTIME_CONFIG_QUERY_KEY,
    queryFn: fetchRuntimeConfig,
    staleTime: Infinity,
  });
  return data?.mailDelivery;
}
