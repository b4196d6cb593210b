import {
  deletedUnusedLicensesSchema,
  generatedLicensesSchema,
  licenseListSchema,
  licenseSchema,
  mailQueuedSchema,
  revealedLicenseSchema,
  type GenerateLicensesRequest,
  type License,
  type LicenseStatus,
} from '@latchkey/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';
import { applicationLicensesQueryKey } from './owner-query-keys.ts';
import { mailQueryKey } from './use-mail.ts';
import { useListMutation, useOwnerMutation } from './use-owner-mutation.ts';

export const LICENSES_FETCH_ERROR = 'Failed to fetch licence keys';

/** What the Licences tab's list shows: a search and the two filters (undefined is all). */
export interface LicenseFilters {
  search: string;
  status: LicenseStatus | undefined;
  planId: string | undefined;
}

export function licensesUrl(applicationId: number, licenseId?: string, action = ''): string {
  const url = `/api/applications/${applicationId}/licenses`;
  return licenseId === undefined ? url : `${url}/${encodeURIComponent(licenseId)}${action}`;
}

/** The query string of the list and of its CSV export, which take the same filters. */
export function toLicenseQueryString(
  { search, status, planId }: LicenseFilters,
  paging: { page?: number; pageSize?: number } = {},
): string {
  return toPageQueryString({ ...paging, search: search.trim(), status, planId });
}

/** GET …/licenses/export.csv with the filters shown: a cookie-authenticated download. */
export function licensesExportUrl(applicationId: number, filters: LicenseFilters): string {
  return `${licensesUrl(applicationId)}/export.csv${toLicenseQueryString(filters)}`;
}

/** One page of an application's keys, newest first; the page shown stays while the next loads. */
export function useLicenses(applicationId: number, filters: LicenseFilters & { page: number }) {
  const { page, ...listFilters } = filters;
  return useQuery({
    queryKey: [...applicationLicensesQueryKey(applicationId), filters],
    queryFn: async (): Promise<PagedList<License>> => {
      const query = toLicenseQueryString(listFilters, { page });
      const response = await apiRequest('GET', `${licensesUrl(applicationId)}${query}`);
      return toPagedList(response, licenseListSchema.parse(await response.json()));
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * How many unused keys a plan has, for the confirmation before deleting them: the list's
 * total of one row, so the server counts and nothing is downloaded. Idle until `planId`.
 */
export function useUnusedLicenseCount(applicationId: number, planId: string | null) {
  return useQuery({
    queryKey: [...applicationLicensesQueryKey(applicationId), 'unused-count', planId],
    queryFn: async () => {
      const query = toPageQueryString({ status: 'unused', planId: planId!, pageSize: 1 });
      const response = await apiRequest('GET', `${licensesUrl(applicationId)}${query}`);
      return toPagedList(response, licenseListSchema.parse(await response.json())).totalCount;
    },
    enabled: planId !== null,
    // Always counted afresh when the confirmation opens: keys may have been used meanwhile.
    staleTime: 0,
    gcTime: 0,
  });
}

/** The whole text of one key (GET …/licenses/:licenseId/key); never cached by the browser. */
export async function revealLicenseKey(applicationId: number, licenseId: string): Promise<string> {
  const response = await apiRequest('GET', licensesUrl(applicationId, licenseId, '/key'));
  return revealedLicenseSchema.parse(await response.json()).key;
}

function useLicenseMutation<TVariables, TData>(
  applicationId: number,
  options: Omit<Parameters<typeof useListMutation<TVariables, TData>>[0], 'listQueryKey'>,
) {
  return useListMutation({ listQueryKey: applicationLicensesQueryKey(applicationId), ...options });
}

export function useGenerateLicenses(applicationId: number) {
  return useLicenseMutation(applicationId, {
    mutationFn: async (request: GenerateLicensesRequest) =>
      generatedLicensesSchema.parse(
        await (await apiRequest('POST', licensesUrl(applicationId), request)).json(),
      ),
    successMessage: 'Licence keys generated successfully',
    errorMessage: 'Failed to generate licence keys',
  });
}

export function useBanLicense(applicationId: number) {
  return useLicenseMutation(applicationId, {
    mutationFn: async ({ licenseId, reason }: { licenseId: string; reason: string }) =>
      licenseSchema.parse(
        await (
          await apiRequest('POST', licensesUrl(applicationId, licenseId, '/ban'), { reason })
        ).json(),
      ),
    successMessage: 'Licence key banned successfully',
    errorMessage: 'Failed to ban licence key',
  });
}

export function useUnbanLicense(applicationId: number) {
  return useLicenseMutation(applicationId, {
    mutationFn: async (licenseId: string) =>
      licenseSchema.parse(
        await (await apiRequest('POST', licensesUrl(applicationId, licenseId, '/unban'))).json(),
      ),
    successMessage: 'Licence key unbanned successfully',
    errorMessage: 'Failed to unban licence key',
  });
}

export function useDeleteLicense(applicationId: number) {
  return useLicenseMutation(applicationId, {
    mutationFn: async (licenseId: string) => {
      await apiRequest('DELETE', licensesUrl(applicationId, licenseId));
    },
    successMessage: 'Licence key deleted successfully',
    errorMessage: 'Failed to delete licence key',
  });
}

export function useDeleteUnusedLicenses(applicationId: number) {
  return useLicenseMutation(applicationId, {
    mutationFn: async (planId: string) =>
      deletedUnusedLicensesSchema.parse(
        await (
          await apiRequest(
            'POST',
            `/api/applications/${applicationId}/plans/${encodeURIComponent(planId)}/delete-unused`,
          )
        ).json(),
      ),
    successMessage: 'Unused licence keys deleted successfully',
    errorMessage: 'Failed to delete unused licence keys',
  });
}

/** POST …/licenses/:licenseId/email: the whole key mailed to an address. */
export function useEmailLicense(applicationId: number) {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async ({ licenseId, to }: { licenseId: string; to: string }) => {
      const response = await apiRequest('POST', licensesUrl(applicationId, licenseId, '/email'), {
        to,
      });
      await queryClient.invalidateQueries({ queryKey: mailQueryKey(applicationId) });
      return mailQueuedSchema.parse(await response.json());
    },
    successMessage: (queued) => queued.message,
    errorMessage: 'Failed to send the key',
  });
}
