import {
  testWebhookResponseSchema,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookSchema,
  webhookSecretResponseSchema,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  type WebhookDelivery,
  type WebhookEvent,
} from '@latchkey/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '@/lib/api.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';
import { getErrorToastMessage, useListMutation, useOwnerMutation } from './use-owner-mutation.ts';
import { toast } from './use-toast.ts';

/** Everything about webhooks (each one's delivery log included) sits under the list's URL. */
export const WEBHOOKS_QUERY_KEY = ['/api/webhooks'] as const;

/** A dialog shows a short page of the log; the server allows up to 200. */
export const DELIVERY_LOG_PAGE_SIZE = 20;

export function webhookDeliveriesQueryKey(webhookId: number) {
  return [...WEBHOOKS_QUERY_KEY, webhookId, 'deliveries'] as const;
}

/** The signed-in owner's webhooks (GET /api/webhooks), re-read on every visit of the page. */
export function useWebhooks() {
  return useQuery({
    queryKey: WEBHOOKS_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: webhookListSchema }),
    refetchOnMount: 'always',
  });
}

/** A change of this list, with the owner toasts; the list is re-read as it settles. */
function useWebhookMutation<TVariables, TData>(
  options: Omit<Parameters<typeof useListMutation<TVariables, TData>>[0], 'listQueryKey'>,
) {
  return useListMutation({ listQueryKey: WEBHOOKS_QUERY_KEY, ...options });
}

export function useCreateWebhook() {
  return useWebhookMutation({
    mutationFn: async (input: CreateWebhookRequest) =>
      webhookSchema.parse(await (await apiRequest('POST', '/api/webhooks', input)).json()),
    successMessage: 'Webhook created successfully',
    errorMessage: 'Failed to create webhook',
  });
}

export interface WebhookUpdate {
  webhookId: number;
  changes: UpdateWebhookRequest;
}

export function useUpdateWebhook() {
  return useWebhookMutation({
    mutationFn: async ({ webhookId, changes }: WebhookUpdate) =>
      webhookSchema.parse(
        await (await apiRequest('PUT', `/api/webhooks/${webhookId}`, changes)).json(),
      ),
    successMessage: 'Webhook updated successfully',
    errorMessage: 'Failed to update webhook',
  });
}

export function useDeleteWebhook() {
  return useWebhookMutation({
    mutationFn: async (webhookId: number) => {
      await apiRequest('DELETE', `/api/webhooks/${webhookId}`);
    },
    successMessage: 'Webhook deleted successfully',
    errorMessage: 'Failed to delete webhook',
  });
}

export const TEST_WEBHOOK_ERROR = 'Failed to send test webhook';

/**
 * POST /api/test-webhook. The success toast is the server's own message, which tells the owner
 * where to look ("Check your channel for the message") and how many were queued.
 */
export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (event: WebhookEvent) =>
      testWebhookResponseSchema.parse(
        await (await apiRequest('POST', '/api/test-webhook', { event })).json(),
      ),
    onSuccess: (result) => {
      toast({ title: 'Success', description: result.message });
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: getErrorToastMessage(error, TEST_WEBHOOK_ERROR),
        variant: 'destructive',
      });
    },
    // The test deliveries are now in the logs.
    onSettled: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_QUERY_KEY }),
  });
}

/** One page of a webhook's delivery log, newest first (GET /api/webhooks/:id/deliveries). */
export function useWebhookDeliveries({ webhookId, page }: { webhookId: number; page: number }) {
  return useQuery({
    queryKey: [...webhookDeliveriesQueryKey(webhookId), { page }],
    queryFn: async (): Promise<PagedList<WebhookDelivery>> => {
      const response = await apiRequest(
        'GET',
        `/api/webhooks/${webhookId}/deliveries${toPageQueryString({ page, pageSize: DELIVERY_LOG_PAGE_SIZE })}`,
      );
      return toPagedList(response, webhookDeliveryListSchema.parse(await response.json()));
    },
    placeholderData: keepPreviousData,
    // The engine changes the log on its own; a reopened log should show where it is now.
    refetchOnMount: 'always',
  });
}

export interface DeliveryRetry {
  webhookId: number;
  deliveryId: string;
}

/** POST /api/webhooks/:id/deliveries/:deliveryId/retry: send that delivery again now. */
export function useRetryWebhookDelivery() {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async ({ webhookId, deliveryId }: DeliveryRetry) => {
      try {
        await apiRequest('POST', `/api/webhooks/${webhookId}/deliveries/${deliveryId}/retry`);
      } finally {
        await queryClient.invalidateQueries({ queryKey: webhookDeliveriesQueryKey(webhookId) });
      }
    },
    successMessage: 'Delivery queued to be sent again',
    errorMessage: 'Failed to retry delivery',
  });
}

/**
 * GET /api/webhooks/:id/secret, on demand only: the list carries the masked form, and the
 * full secret is held by the component that asked, never in the shared query cache.
 */
export function useRevealWebhookSecret() {
  return useMutation({
    mutationFn: async (webhookId: number) =>
      webhookSecretResponseSchema.parse(
        await (await apiRequest('GET', `/api/webhooks/${webhookId}/secret`)).json(),
      ).secret,
    onError: (error) => {
      toast({
        title: 'Error',
        description: getErrorToastMessage(error, 'Failed to reveal secret'),
        variant: 'destructive',
      });
    },
  });
}
