import { SDK_PACKAGES_INDEX_PATH, sdkPackagesIndexSchema } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api.ts';

/** The client SDK packages this server serves at /sdk/: public files, the same for everyone. */
export function useSdkPackages() {
  return useQuery({
    queryKey: [SDK_PACKAGES_INDEX_PATH],
    queryFn: getQueryFn({ on401: 'throw', schema: sdkPackagesIndexSchema }),
    staleTime: Infinity,
  });
}
