import {
  createdShopConnectionSchema,
  shopConnectionListSchema,
  shopConnectionSchema,
  shopOrderDetailSchema,
  shopOrderListSchema,
  shopOrderSchema,
  shopTestEventResultSchema,
  type CreateShopConnectionRequest,
  type ShopOrder,
  type ShopOrderStatus,
  type ShopTestEventRequest,
  type ShopTestEventResult,
  type UpdateShopConnectionRequest,
} from '@latchkey/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';
import {
  applicationShopConnectionsQueryKey,
  applicationShopOrdersQueryKey,
} from './owner-query-keys.ts';
import {
  getErrorToastMessage,
  invalidateOwnerData,
  useListMutation,
} from './use-owner-mutation.ts';
import { toast } from './use-toast.ts';

export const SHOP_CONNECTIONS_FETCH_ERROR = 'Failed to fetch shop connections';
export const SHOP_ORDERS_FETCH_ERROR = 'Failed to fetch orders';
export const SHOP_ORDER_FETCH_ERROR = 'Failed to open the order';
export const SHOP_ORDERS_PAGE_SIZE = 20;

function connectionsUrl(applicationId: number, connectionId?: string, action = ''): string {
  const url = `/api/applications/${applicationId}/shop-connections`;
  return connectionId === undefined ? url : `${url}/${encodeURIComponent(connectionId)}${action}`;
}

function ordersUrl(applicationId: number, orderId?: string, action = ''): string {
  const url = `/api/applications/${applicationId}/orders`;
  return orderId === undefined ? url : `${url}/${encodeURIComponent(orderId)}${action}`;
}

/** An application's shop connections, oldest first (GET …/shop-connections). */
export function useShopConnections(applicationId: number) {
  return useQuery({
    queryKey: applicationShopConnectionsQueryKey(applicationId),
    queryFn: async () =>
      shopConnectionListSchema.parse(
        await (await apiRequest('GET', connectionsUrl(applicationId))).json(),
      ),
    // Shops deliver on their own: a revisit shows how many orders wait for a mapping now.
    refetchOnMount: 'always',
  });
}

/** What the Orders card filters by (undefined is all). */
export interface ShopOrderFilters {
  search: string;
  status: ShopOrderStatus | undefined;
  testMode: 'true' | 'false' | undefined;
}

/** One page of the orders shops sent, newest first; the page shown stays while the next loads. */
export function useShopOrders(applicationId: number, filters: ShopOrderFilters & { page: number }) {
  return useQuery({
    queryKey: [...applicationShopOrdersQueryKey(applicationId), 'list', filters],
    queryFn: async (): Promise<PagedList<ShopOrder>> => {
      const query = toPageQueryString({
        page: filters.page,
        pageSize: SHOP_ORDERS_PAGE_SIZE,
        search: filters.search.trim(),
        status: filters.status,
        testMode: filters.testMode,
      });
      const response = await apiRequest('GET', `${ordersUrl(applicationId)}${query}`);
      return toPagedList(response, shopOrderListSchema.parse(await response.json()));
    },
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}

/** One order with its events and masked keys; only while `orderId` is set (its dialog open). */
export function useShopOrder(applicationId: number, orderId: string | null) {
  return useQuery({
    queryKey: [...applicationShopOrdersQueryKey(applicationId), 'detail', orderId],
    queryFn: async () =>
      shopOrderDetailSchema.parse(
        await (await apiRequest('GET', ordersUrl(applicationId, orderId!))).json(),
      ),
    enabled: orderId !== null,
    refetchOnMount: 'always',
  });
}

/**
 * A save of a connection's form. A refusal that names its field (`secret: …`, `products: …`)
 * is shown at that field by the form, so only the others are toasted; the list is re-read as
 * it settles either way.
 */
function useShopConnectionSave<TVariables, TData>({
  applicationId,
  mutationFn,
  successMessage,
  errorMessage,
  isFieldRefusal,
}: {
  applicationId: number;
  mutationFn: (variables: TVariables) => Promise<TData>;
  successMessage: string;
  errorMessage: string;
  isFieldRefusal: (error: unknown) => boolean;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: TVariables) => {
      try {
        return await mutationFn(variables);
      } finally {
        await queryClient.invalidateQueries({
          queryKey: applicationShopConnectionsQueryKey(applicationId),
        });
      }
    },
    onSuccess: () => toast({ title: 'Success', description: successMessage }),
    onError: (error) => {
      if (isFieldRefusal(error)) return;
      toast({
        title: 'Error',
        description: getErrorToastMessage(error, errorMessage),
        variant: 'destructive',
      });
    },
    onSettled: () => void invalidateOwnerData(queryClient),
  });
}

export function useCreateShopConnection(
  applicationId: number,
  isFieldRefusal: (error: unknown) => boolean,
) {
  return useShopConnectionSave({
    applicationId,
    isFieldRefusal,
    mutationFn: async (request: CreateShopConnectionRequest) =>
      createdShopConnectionSchema.parse(
        await (await apiRequest('POST', connectionsUrl(applicationId), request)).json(),
      ),
    successMessage: 'Shop connected successfully',
    errorMessage: 'Failed to connect the shop',
  });
}

export interface ShopConnectionUpdate {
  connectionId: string;
  changes: UpdateShopConnectionRequest;
}

async function updateShopConnection(
  applicationId: number,
  { connectionId, changes }: ShopConnectionUpdate,
) {
  return shopConnectionSchema.parse(
    await (await apiRequest('PUT', connectionsUrl(applicationId, connectionId), changes)).json(),
  );
}

export function useUpdateShopConnection(
  applicationId: number,
  isFieldRefusal: (error: unknown) => boolean,
) {
  return useShopConnectionSave({
    applicationId,
    isFieldRefusal,
    mutationFn: (update: ShopConnectionUpdate) => updateShopConnection(applicationId, update),
    successMessage: 'Shop connection updated successfully',
    errorMessage: 'Failed to update the shop connection',
  });
}

/** Gumroad's URL token replaced: the old URL stops at once. */
export function useRotateShopUrl(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationShopConnectionsQueryKey(applicationId),
    mutationFn: (connectionId: string) =>
      updateShopConnection(applicationId, { connectionId, changes: { rotateUrlToken: true } }),
    successMessage: 'New URL made: paste it into Gumroad as the Ping URL',
    errorMessage: 'Failed to make a new URL',
  });
}

export function useDeleteShopConnection(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationShopConnectionsQueryKey(applicationId),
    mutationFn: async (connectionId: string) => {
      await apiRequest('DELETE', connectionsUrl(applicationId, connectionId));
    },
    successMessage: 'Shop connection deleted successfully',
    errorMessage: 'Failed to delete the shop connection',
  });
}

/** What a test event's toast says: the order it made and its keys, or that it made none. */
export function describeTestEventResult(
  { statusCode, order }: ShopTestEventResult,
  statusLabel: (order: ShopOrder) => string,
): string {
  if (!order) return `The connection's URL answered ${statusCode} and made no order.`;
  const keys = order.licenseIds.length;
  return `Test order ${order.providerOrderId}: ${statusLabel(order)}, ${keys} ${keys === 1 ? 'key' : 'keys'}.`;
}

/** POST …/test-event: a signed sample order through the connection; the orders re-read. */
export function useSendShopTestEvent(
  applicationId: number,
  statusLabel: (order: ShopOrder) => string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      connectionId,
      request,
    }: {
      connectionId: string;
      request: ShopTestEventRequest;
    }) =>
      shopTestEventResultSchema.parse(
        await (
          await apiRequest(
            'POST',
            connectionsUrl(applicationId, connectionId, '/test-event'),
            request,
          )
        ).json(),
      ),
    onSuccess: (result) =>
      toast({ title: 'Success', description: describeTestEventResult(result, statusLabel) }),
    onError: (error) =>
      toast({
        title: 'Error',
        description: getErrorToastMessage(error, 'Failed to send the test event'),
        variant: 'destructive',
      }),
    // The order, its keys and the connection's waiting count all changed.
    onSettled: () => invalidateOwnerData(queryClient),
  });
}

/** POST …/orders/:orderId/process: a waiting order minted now that its product is mapped. */
export function useProcessShopOrder(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationShopOrdersQueryKey(applicationId),
    mutationFn: async (orderId: string) =>
      shopOrderSchema.parse(
        await (await apiRequest('POST', ordersUrl(applicationId, orderId, '/process'))).json(),
      ),
    successMessage: 'Order processed: its keys are minted',
    errorMessage: 'Failed to process the order',
  });
}
