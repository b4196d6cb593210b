import { DEFAULT_END_USER_PASSWORD_MIN_LENGTH } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { fetchRuntimeConfig } from '@/lib/runtime-config.ts';

export const RUNTIME_CONFIG_QUERY_KEY = ['/api/config'] as const;

/**
 * The installation's minimum end-user password length (END_USER_PASSWORD_MIN_LENGTH), for
 * the user dialogs to say and check. Until it is known the default stands in; the server
 * checks again either way.
 */
export function useEndUserPasswordMinLength(): number {
  const { data } = useQuery({
    queryKey: RUNTIME_CONFIG_QUERY_KEY,
    queryFn: fetchRuntimeConfig,
    staleTime: Infinity,
  });
  return data?.endUserPasswordMinLength ?? DEFAULT_END_USER_PASSWORD_MIN_LENGTH;
}
