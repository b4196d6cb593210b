import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  appUserParamsSchema,
  grantSubscriptionRequestSchema,
  subscriptionListSchema,
  subscriptionParamsSchema,
  updateSubscriptionRequestSchema,
  userMeterListSchema,
  type Subscription,
  type UserMeter,
} from '@latchkey/contracts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import {
  deleteSubscription,
  grantSubscription,
  listUserMeters,
  listUserSubscriptions,
  updateSubscription,
} from './user-subscriptions.ts';

interface SubscriptionServices {
  applicationEvents: ApplicationEvents;
}

const defineRoute = routeDefiner<SubscriptionServices>();

const ctx = (request: FastifyRequest, { applicationEvents }: SubscriptionServices) => ({
  ...request.owner!,
  applicationEvents,
});

/**
 * An end user's subscriptions. Every answer is the user's whole list, so the
 * console's dialog shows the stacked result of a change.
 */
export const subscriptionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:appId/users/:userId/subscriptions',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Licences',
    summary: 'List an end user\u2019s subscriptions',
    params: appUserParamsSchema,
    responses: { 200: ok(subscriptionListSchema) },
    handle: async ({ params, request }, services): Promise<Subscription[]> =>
      listUserSubscriptions({
        ctx: ctx(request, services),
        input: { applicationId: params.appId, userId: params.userId },
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:appId/users/:userId/meters',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Where an end user\u2019s usage meters stand',
    description:
      'The meters of the user\u2019s active subscriptions, merged by name as the client API counts them (allowances added up), with the current period\u2019s use. Empty when no active plan has a meter.',
    params: appUserParamsSchema,
    responses: { 200: ok(userMeterListSchema) },
    handle: async ({ params, request }, services): Promise<UserMeter[]> =>
      listUserMeters({
        ctx: ctx(request, services),
        input: { applicationId: params.appId, userId: params.userId },
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/subscriptions',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Grant a plan to an end user',
    description:
      'Without `expiresAt`, for the plan\u2019s duration from now. Answers the user\u2019s subscriptions. A plan the user holds is a 409.',
    params: appUserParamsSchema,
    body: grantSubscriptionRequestSchema,
    responses: { 201: ok(subscriptionListSchema, 'Created.') },
    errors: [409],
    handle: async ({ params, body, request, reply }, services) => {
      const list = await grantSubscription({
        ctx: ctx(request, services),
        input: { applicationId: params.appId, userId: params.userId, ...body },
      });
      return reply.status(201).send(list satisfies Subscription[]);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/applications/:appId/users/:userId/subscriptions/:subscriptionId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Extend or shorten a subscription',
    params: subscriptionParamsSchema,
    body: updateSubscriptionRequestSchema,
    responses: { 200: ok(subscriptionListSchema) },
    handle: async ({ params, body, request }, services): Promise<Subscription[]> => {
      const { appId, userId, subscriptionId } = params;
      return updateSubscription({
        ctx: ctx(request, services),
        input: {
          applicationId: appId,
          userId,
          subscriptionId,
          expiresAt: body.expiresAt,
          updatesUntil: body.updatesUntil,
        },
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId/subscriptions/:subscriptionId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Remove a subscription',
    params: subscriptionParamsSchema,
    responses: { 200: ok(subscriptionListSchema) },
    handle: async ({ params, request }, services): Promise<Subscription[]> => {
      const { appId, userId, subscriptionId } = params;
      return deleteSubscription({
        ctx: ctx(request, services),
        input: { applicationId: appId, userId, subscriptionId },
      });
    },
  }),
];

/** An end user's subscriptions. Registered inside the owner scope. */
export function registerSubscriptionRoutes(
  app: FastifyInstance,
  services: SubscriptionServices,
): void {
  registerRoutes(app, subscriptionRoutes, services);
}
