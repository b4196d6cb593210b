import {
  subscriptionListSchema,
  userMeterListSchema,
  type GrantSubscriptionRequest,
  type Subscription,
  type UpdateSubscriptionRequest,
} from '@latchkey/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { userMetersQueryKey, userSubscriptionsQueryKey } from './owner-query-keys.ts';
import { useOwnerMutation } from './use-owner-mutation.ts';

export const SUBSCRIPTIONS_FETCH_ERROR = 'Failed to fetch subscriptions';

function subscriptionsUrl(applicationId: number, userId: string, subscriptionId?: string) {
  const url = `/api/applications/${applicationId}/users/${encodeURIComponent(userId)}/subscriptions`;
  return subscriptionId === undefined ? url : `${url}/${encodeURIComponent(subscriptionId)}`;
}

export const METERS_FETCH_ERROR = 'Failed to fetch usage meters';

/** Where an end user's usage meters stand: read again when the section opens, as use moves. */
export function useUserMeters(applicationId: number, userId: string) {
  return useQuery({
    queryKey: userMetersQueryKey(applicationId, userId),
    queryFn: async () =>
      userMeterListSchema.parse(
        await (
          await apiRequest(
            'GET',
            `/api/applications/${applicationId}/users/${encodeURIComponent(userId)}/meters`,
          )
        ).json(),
      ),
  });
}

/** The plans an end user holds, and until when. */
export function useUserSubscriptions(applicationId: number, userId: string) {
  return useQuery({
    queryKey: userSubscriptionsQueryKey(applicationId, userId),
    queryFn: async () =>
      subscriptionListSchema.parse(
        await (await apiRequest('GET', subscriptionsUrl(applicationId, userId))).json(),
      ),
  });
}

/**
 * A change of one user's subscriptions. Every answer is the user's whole list, so it is shown
 * at once (a grant that stacked, an expiry the server clamped) without another request.
 */
function useSubscriptionMutation<TVariables>(
  applicationId: number,
  userId: string,
  {
    send,
    successMessage,
    errorMessage,
  }: {
    send: (variables: TVariables) => Promise<Response>;
    successMessage: string;
    errorMessage: string;
  },
) {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async (variables: TVariables): Promise<Subscription[]> => {
      const list = subscriptionListSchema.parse(await (await send(variables)).json());
      queryClient.setQueryData(userSubscriptionsQueryKey(applicationId, userId), list);
      // The meters are those of the active subscriptions: a grant or removal changes them.
      void queryClient.invalidateQueries({ queryKey: userMetersQueryKey(applicationId, userId) });
      return list;
    },
    successMessage,
    errorMessage,
  });
}

export function useGrantSubscription(applicationId: number, userId: string) {
  return useSubscriptionMutation(applicationId, userId, {
    send: (grant: GrantSubscriptionRequest) =>
      apiRequest('POST', subscriptionsUrl(applicationId, userId), grant),
    successMessage: 'Subscription granted successfully',
    errorMessage: 'Failed to grant subscription',
  });
}

export function useUpdateSubscription(applicationId: number, userId: string) {
  return useSubscriptionMutation(applicationId, userId, {
    send: ({
      subscriptionId,
      ...changes
    }: UpdateSubscriptionRequest & { subscriptionId: string }) =>
      apiRequest('PUT', subscriptionsUrl(applicationId, userId, subscriptionId), changes),
    successMessage: 'Subscription updated successfully',
    errorMessage: 'Failed to update subscription',
  });
}

export function useRemoveSubscription(applicationId: number, userId: string) {
  return useSubscriptionMutation(applicationId, userId, {
    send: (subscriptionId: string) =>
      apiRequest('DELETE', subscriptionsUrl(applicationId, userId, subscriptionId)),
    successMessage: 'Subscription removed successfully',
    errorMessage: 'Failed to remove subscription',
  });
}
