import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  createWebhookRequestSchema,
  testWebhookRequestSchema,
  updateWebhookRequestSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryParamsSchema,
  webhookParamsSchema,
  type DeletedResponse,
  type TestWebhookResponse,
  type Webhook,
  type WebhookDelivery,
  type WebhookSecretResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { createWebhook } from './create-webhook.ts';
import { deleteWebhook } from './delete-webhook.ts';
import { destinationPolicyFor } from './destination-guard.ts';
import { listWebhookDeliveries } from './list-webhook-deliveries.ts';
import { listWebhooks } from './list-webhooks.ts';
import { retryWebhookDelivery } from './retry-webhook-delivery.ts';
import { revealWebhookSecret } from './reveal-webhook-secret.ts';
import { sendTestWebhook } from './send-test-webhook.ts';
import { updateWebhook } from './update-webhook.ts';

/** The owner's webhooks. Registered inside the owner-guarded scope. */
export function registerWebhookRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'>,
): void {
  const { serverSecret } = deps.config;
  const destinationPolicy = destinationPolicyFor(deps.config);

  app.get('/api/webhooks', async (request): Promise<Webhook[]> => {
    return listWebhooks({ ctx: request.owner! });
  });

  app.post('/api/webhooks', async (request, reply) => {
    const input = parseInput(createWebhookRequestSchema, request.body);
    const webhook = await createWebhook({
      ctx: { ...request.owner!, serverSecret, destinationPolicy },
      input,
    });
    return reply.status(201).send(webhook satisfies Webhook);
  });

  app.put('/api/webhooks/:id', async (request): Promise<Webhook> => {
    const { id } = parseInput(webhookParamsSchema, request.params);
    const changes = parseInput(updateWebhookRequestSchema, request.body);
    return updateWebhook({
      ctx: { ...request.owner!, serverSecret, destinationPolicy },
      input: { webhookId: id, changes },
    });
  });

  app.delete('/api/webhooks/:id', async (request): Promise<DeletedResponse> => {
    const { id } = parseInput(webhookParamsSchema, request.params);
    await deleteWebhook({ ctx: request.owner!, input: { webhookId: id } });
    return { success: true, message: 'Webhook deleted successfully' };
  });

  app.get('/api/webhooks/:id/secret', async (request): Promise<WebhookSecretResponse> => {
    const { id } = parseInput(webhookParamsSchema, request.params);
    return revealWebhookSecret({
      ctx: { ...request.owner!, serverSecret },
      input: { webhookId: id },
    });
  });

  app.get('/api/webhooks/:id/deliveries', async (request, reply): Promise<WebhookDelivery[]> => {
    const { id } = parseInput(webhookParamsSchema, request.params);
    const query = parseInput(webhookDeliveryListQuerySchema, request.query);
    const page = await listWebhookDeliveries({
      ctx: request.owner!,
      input: { ...query, webhookId: id },
    });
    setPagingHeaders(reply, query, page);
    return page.rows;
  });

  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/retry',
    async (request): Promise<WebhookDelivery> => {
      const { id, deliveryId } = parseInput(webhookDeliveryParamsSchema, request.params);
      const delivery = await retryWebhookDelivery({
        ctx: request.owner!,
        input: { webhookId: id, deliveryId },
      });
      // Sent now by this instance, not at the next poll.
      app.webhookDispatcher?.wake();
      return delivery;
    },
  );

  app.post('/api/test-webhook', async (request): Promise<TestWebhookResponse> => {
    const input = parseInput(testWebhookRequestSchema, request.body);
    const result = await sendTestWebhook({ ctx: request.owner!, input });
    app.webhookDispatcher?.wake();
    return result;
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const webhookRoutes: readonly RouteDefinition[] = [];
