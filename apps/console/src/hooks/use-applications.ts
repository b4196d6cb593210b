import {
  applicationListSchema,
  applicationSchema,
  type Application,
  type CreateApplicationRequest,
  type UpdateApplicationRequest,
} from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '@/lib/api.ts';
import { APPLICATIONS_QUERY_KEY } from './owner-query-keys.ts';
import { useOwnerMutation } from './use-owner-mutation.ts';

/**
 * The signed-in owner's applications (GET /api/applications). `isRefreshedOnMount` re-reads
 * the list even when cached: for a page that must not miss an application made elsewhere.
 */
export function useApplications({ isRefreshedOnMount = false } = {}) {
  return useQuery({
    queryKey: APPLICATIONS_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: applicationListSchema }),
    refetchOnMount: isRefreshedOnMount ? 'always' : true,
  });
}

async function readApplication(response: Response): Promise<Application> {
  return applicationSchema.parse(await response.json());
}

export function useCreateApplication() {
  return useOwnerMutation({
    mutationFn: async (input: CreateApplicationRequest) =>
      readApplication(await apiRequest('POST', '/api/applications', input)),
    successMessage: 'Application created successfully',
    errorMessage: 'Failed to create application',
  });
}

export interface ApplicationUpdate {
  applicationId: number;
  changes: UpdateApplicationRequest;
}

export function useUpdateApplication() {
  return useOwnerMutation({
    mutationFn: async ({ applicationId, changes }: ApplicationUpdate) =>
      readApplication(await apiRequest('PUT', `/api/applications/${applicationId}`, changes)),
    successMessage: 'Application updated successfully',
    errorMessage: 'Failed to update application',
  });
}

export function useDeleteApplication() {
  return useOwnerMutation({
    mutationFn: async (applicationId: number) => {
      await apiRequest('DELETE', `/api/applications/${applicationId}`);
    },
    successMessage: 'Application deleted successfully',
    errorMessage: 'Failed to delete application',
  });
}
