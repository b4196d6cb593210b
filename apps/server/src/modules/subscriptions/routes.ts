import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  appUserParamsSchema,
  grantSubscriptionRequestSchema,
  subscriptionParamsSchema,
  updateSubscriptionRequestSchema,
  type Subscription,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import {
  deleteSubscription,
  grantSubscription,
  listUserSubscriptions,
  updateSubscription,
} from './user-subscriptions.ts';

/**
 * An end user's subscriptions. Every answer is the user's whole list, so the
 * console's dialog shows the stacked result of a change. Registered inside the owner scope.
 */
export function registerSubscriptionRoutes(
  app: FastifyInstance,
  { applicationEvents }: { applicationEvents: ApplicationEvents },
): void {
  const ctx = (request: FastifyRequest) => ({ ...request.owner!, applicationEvents });
  const base = '/api/applications/:appId/users/:userId/subscriptions';

  app.get(base, async (request): Promise<Subscription[]> => {
    const { appId, userId } = parseInput(appUserParamsSchema, request.params);
    return listUserSubscriptions({ ctx: ctx(request), input: { applicationId: appId, userId } });
  });

  app.post(base, async (request, reply) => {
    const { appId, userId } = parseInput(appUserParamsSchema, request.params);
    const grant = parseInput(grantSubscriptionRequestSchema, request.body);
    const list = await grantSubscription({
      ctx: ctx(request),
      input: { applicationId: appId, userId, ...grant },
    });
    return reply.status(201).send(list satisfies Subscription[]);
  });

  app.put(`${base}/:subscriptionId`, async (request): Promise<Subscription[]> => {
    const { appId, userId, subscriptionId } = parseInput(subscriptionParamsSchema, request.params);
    const { expiresAt } = parseInput(updateSubscriptionRequestSchema, request.body);
    return updateSubscription({
      ctx: ctx(request),
      input: { applicationId: appId, userId, subscriptionId, expiresAt },
    });
  });

  app.delete(`${base}/:subscriptionId`, async (request): Promise<Subscription[]> => {
    const { appId, userId, subscriptionId } = parseInput(subscriptionParamsSchema, request.params);
    return deleteSubscription({
      ctx: ctx(request),
      input: { applicationId: appId, userId, subscriptionId },
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const subscriptionRoutes: readonly RouteDefinition[] = [];
