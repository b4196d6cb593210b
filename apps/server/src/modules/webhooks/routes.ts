import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  createWebhookRequestSchema,
  deletedResponseSchema,
  testWebhookRequestSchema,
  testWebhookResponseSchema,
  updateWebhookRequestSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookSchema,
  webhookSecretResponseSchema,
  type DeletedResponse,
  type TestWebhookResponse,
  type Webhook,
  type WebhookDelivery,
  type WebhookSecretResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { destinationPolicyFor, type DestinationPolicy } from './destination-guard.ts';
import { listWebhookDeliveries } from './list-webhook-deliveries.ts';
import { listWebhooks } from './list-webhooks.ts';
import { retryWebhookDelivery } from './retry-webhook-delivery.ts';
import { revealWebhookSecret } from './reveal-webhook-secret.ts';
import { sendTestWebhook } from './send-test-webhook.ts';
import { updateWebhook } from './update-webhook.ts';

const defineRoute = routeDefiner<{
  serverSecret: string;
  destinationPolicy: DestinationPolicy;
  /** Has this instance's dispatcher (if it runs one) send queued deliveries now. */
  wakeDispatcher: () => void;
}>();

/** The owner's webhooks. */
export const webhookRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/webhooks',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'List webhooks',
    responses: { 200: ok(webhookListSchema) },
    handle: async ({ request }): Promise<Webhook[]> => {
      return listWebhooks({ ctx: request.owner! });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/webhooks',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Create a webhook',
    body: createWebhookRequestSchema,
    responses: { 201: ok(webhookSchema, 'Created.') },
    errors: [404],
    handle: async ({ body, request, reply }, { serverSecret, destinationPolicy }) => {
      const webhook = await createWebhook({
        ctx: { ...request.owner!, serverSecret, destinationPolicy },
        input: body,
      });
      return reply.status(201).send(webhook satisfies Webhook);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/webhooks/:id',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Update a webhook',
    params: webhookParamsSchema,
    body: updateWebhookRequestSchema,
    responses: { 200: ok(webhookSchema) },
    handle: async (
      { params, body, request },
      { serverSecret, destinationPolicy },
    ): Promise<Webhook> =>
      updateWebhook({
        ctx: { ...request.owner!, serverSecret, destinationPolicy },
        input: { webhookId: params.id, changes: body },
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/webhooks/:id',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    params: webhookParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }): Promise<DeletedResponse> => {
      await deleteWebhook({ ctx: request.owner!, input: { webhookId: params.id } });
      return { success: true, message: 'Webhook deleted successfully' };
    },
  }),
  // A webhook's secret is a credential, not a read of data, so it goes with the right to
  // configure webhooks.
  defineRoute({
    method: 'GET',
    path: '/api/webhooks/:id/secret',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Reveal a webhook\u2019s signing secret',
    params: webhookParamsSchema,
    responses: { 200: ok(webhookSecretResponseSchema) },
    handle: async ({ params, request }, { serverSecret }): Promise<WebhookSecretResponse> =>
      revealWebhookSecret({
        ctx: { ...request.owner!, serverSecret },
        input: { webhookId: params.id },
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/webhooks/:id/deliveries',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'A webhook\u2019s delivery log',
    params: webhookParamsSchema,
    query: webhookDeliveryListQuerySchema,
    responses: { 200: paged(z.array(webhookDeliverySchema), 'Deliveries, newest first.') },
    handle: async ({ params, query, request, reply }): Promise<WebhookDelivery[]> => {
      const page = await listWebhookDeliveries({
        ctx: request.owner!,
        input: { ...query, webhookId: params.id },
      });
      setPagingHeaders(reply, query, page);
      return page.rows;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/webhooks/:id/deliveries/:deliveryId/retry',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Send a delivery again (409 while an attempt is in flight)',
    params: webhookDeliveryParamsSchema,
    responses: { 200: ok(webhookDeliverySchema) },
    errors: [409],
    handle: async ({ params, request }, { wakeDispatcher }): Promise<WebhookDelivery> => {
      const delivery = await retryWebhookDelivery({
        ctx: request.owner!,
        input: { webhookId: params.id, deliveryId: params.deliveryId },
      });
      // Sent now by this instance, not at the next poll.
      wakeDispatcher();
      return delivery;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/test-webhook',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Queue a sample event to the owner\u2019s webhooks',
    body: testWebhookRequestSchema,
    responses: { 200: ok(testWebhookResponseSchema) },
    handle: async ({ body, request }, { wakeDispatcher }): Promise<TestWebhookResponse> => {
      const result = await sendTestWebhook({ ctx: request.owner!, input: body });
      wakeDispatcher();
      return result;
    },
  }),
];

/** The owner's webhooks. Registered inside the owner-guarded scope. */
export function registerWebhookRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'>,
): void {
  registerRoutes(app, webhookRoutes, {
    serverSecret: deps.config.serverSecret,
    destinationPolicy: destinationPolicyFor(deps.config),
    wakeDispatcher: () => app.webhookDispatcher?.wake(),
  });
}
