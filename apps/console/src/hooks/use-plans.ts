import {
  planListSchema,
  planSchema,
  type CreatePlanRequest,
  type UpdatePlanRequest,
} from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { applicationPlansQueryKey } from './owner-query-keys.ts';
import { useListMutation } from './use-owner-mutation.ts';

export const PLANS_FETCH_ERROR = 'Failed to fetch plans';

function plansUrl(applicationId: number, planId?: string): string {
  const url = `/api/applications/${applicationId}/plans`;
  return planId === undefined ? url : `${url}/${encodeURIComponent(planId)}`;
}

/**
 * An application's plans, archived ones included (GET /api/applications/:id/plans). An
 * application has a handful, so the server sends them whole, by name.
 */
export function usePlans(applicationId: number) {
  return useQuery({
    queryKey: applicationPlansQueryKey(applicationId),
    queryFn: async () =>
      planListSchema.parse(await (await apiRequest('GET', plansUrl(applicationId))).json()),
  });
}

/** A change of one application's plans, with the owner toasts; the list is re-read as it settles. */
function usePlanMutation<TVariables, TData>(
  applicationId: number,
  options: Omit<Parameters<typeof useListMutation<TVariables, TData>>[0], 'listQueryKey'>,
) {
  return useListMutation({ listQueryKey: applicationPlansQueryKey(applicationId), ...options });
}

export function useCreatePlan(applicationId: number) {
  return usePlanMutation(applicationId, {
    mutationFn: async (plan: CreatePlanRequest) =>
      planSchema.parse(await (await apiRequest('POST', plansUrl(applicationId), plan)).json()),
    successMessage: 'Plan created successfully',
    errorMessage: 'Failed to create plan',
  });
}

export interface PlanUpdate {
  planId: string;
  changes: UpdatePlanRequest;
}

async function updatePlan(applicationId: number, { planId, changes }: PlanUpdate) {
  return planSchema.parse(
    await (await apiRequest('PUT', plansUrl(applicationId, planId), changes)).json(),
  );
}

export function useUpdatePlan(applicationId: number) {
  return usePlanMutation(applicationId, {
    mutationFn: (update: PlanUpdate) => updatePlan(applicationId, update),
    successMessage: 'Plan updated successfully',
    errorMessage: 'Failed to update plan',
  });
}

/**
 * Archiving and restoring are the same PUT (archived true or false), each with its own
 * toasts; an archived plan keeps its keys and subscriptions but is offered for no new ones.
 */
export function useSetPlanArchived(applicationId: number, isArchived: boolean) {
  return usePlanMutation(applicationId, {
    mutationFn: (planId: string) =>
      updatePlan(applicationId, { planId, changes: { archived: isArchived } }),
    ...(isArchived
      ? { successMessage: 'Plan archived successfully', errorMessage: 'Failed to archive plan' }
      : {
          successMessage: 'Plan unarchived successfully',
          errorMessage: 'Failed to unarchive plan',
        }),
  });
}

/** A plan that keys or subscriptions use is refused (409); the toast gives the server's reason. */
export function useDeletePlan(applicationId: number) {
  return usePlanMutation(applicationId, {
    mutationFn: async (planId: string) => {
      await apiRequest('DELETE', plansUrl(applicationId, planId));
    },
    successMessage: 'Plan deleted successfully',
    errorMessage: 'Failed to delete plan',
  });
}
