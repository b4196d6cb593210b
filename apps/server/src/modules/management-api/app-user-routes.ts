import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  appUserListQuerySchema,
  appUserListSchema,
  appUserSchema,
  applicationParamsSchema,
  createAppUserRequestSchema,
  deletedResponseSchema,
  deviceListSchema,
  endUserPasswordProblem,
  grantSubscriptionRequestSchema,
  managedAppUserParamsSchema,
  managedDeviceParamsSchema,
  managedSubscriptionParamsSchema,
  releasedDevicesSchema,
  subscriptionListSchema,
  userMeterListSchema,
  updateAppUserRequestSchema,
  updateSubscriptionRequestSchema,
  type AppUser,
  type AppUserListRow,
  type Device,
  type ReleasedDevices,
  type Subscription,
  type UserMeter,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { routeDefiner } from '../../http/route-definition.ts';
import { badRequest } from '../../lib/errors.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import {
  createAppUser,
  deleteAppUser,
  getAppUser,
  listAppUsers,
  pauseAppUser,
  toAppUserListRow,
  toAppUserResponse,
  unpauseAppUser,
  updateAppUser,
} from '../app-users/index.ts';
import {
  deleteSubscription,
  grantSubscription,
  listUserMeters,
  listUserSubscriptions,
  updateSubscription,
} from '../subscriptions/index.ts';
import { listUserDevices, releaseUserDevices, toDeviceResponse } from '../devices/index.ts';
import { idempotent } from './management-descriptions.ts';
import { applicationIdsOf, registerApplicationRoutes } from './management-route-scopes.ts';
import { answerManagementWrite } from './management-write.ts';

type AppUserServices = Pick<AppDependencies, 'config' | 'applicationEvents'> & {
  activity: Pick<ActivityRecorder, 'noteWritten'>;
};

const defineRoute = routeDefiner<AppUserServices>();

/** The context of a verb that changes an end user: it tells the application and the activity. */
const changing = (request: FastifyRequest, services: AppUserServices) => ({
  ...request.management!,
  applicationEvents: services.applicationEvents,
  activity: services.activity,
});

// The console's rule: only new passwords must meet the minimum length.
const assertAcceptablePassword = (password: string | undefined, services: AppUserServices) => {
  if (password === undefined) return;
  const problem = endUserPasswordProblem(password, services.config.endUserPasswordMinLength);
  if (problem) throw badRequest(`password: ${problem}`);
};

/**
 * End users through the management API: the console's verbs and shapes, within the
 * token's applications. Writes go through answerManagementWrite (idempotency, audit).
 */
export const managementAppUserRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/users',
    caller: 'manage',
    tag: 'Management API',
    summary: 'List an application\u2019s end users (paged, with ?search)',
    params: applicationParamsSchema,
    query: appUserListQuerySchema,
    responses: { 200: paged(appUserListSchema, 'End users, newest first.') },
    management: { scope: 'users:read', sameAs: 'GET /api/applications/:id/users' },
    handle: async ({ params, query, request, reply }): Promise<AppUserListRow[]> => {
      const page = await listAppUsers({
        ctx: request.management!,
        input: { applicationId: params.id, ...query },
      });
      setPagingHeaders(reply, query, page);
      return page.rows.map(toAppUserListRow);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/applications/:id/users',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Create an end user',
    description: `The console\u2019s rules: a username unique in the application, a password of the configured length.${idempotent}`,
    params: applicationParamsSchema,
    body: createAppUserRequestSchema,
    responses: { 201: ok(appUserSchema, 'Created.') },
    errors: [409],
    management: { scope: 'users:write', sameAs: 'POST /api/applications/:id/users' },
    handle: ({ params, body: user, request, reply }, services) => {
      assertAcceptablePassword(user.password, services);
      return answerManagementWrite(request, reply, async () => {
        const created = await createAppUser({
          ctx: changing(request, services),
          input: { applicationId: params.id, user },
        });
        return { status: 201, body: toAppUserResponse(created) satisfies AppUser };
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/users/:userId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'One end user',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    management: { scope: 'users:read', sameAs: 'GET /api/applications/:id/users' },
    handle: async ({ params, request }): Promise<AppUser> =>
      toAppUserResponse(
        await getAppUser({ ctx: request.management!, input: applicationIdsOf(params) }),
      ),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/manage/v1/applications/:id/users/:userId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Change an end user (absent fields unchanged; set expiresAt to extend or expire)',
    params: managedAppUserParamsSchema,
    body: updateAppUserRequestSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
    management: { scope: 'users:write', sameAs: 'PUT /api/applications/:appId/users/:userId' },
    handle: ({ params, body: changes, request, reply }, services) => {
      assertAcceptablePassword(changes.password, services);
      return answerManagementWrite(request, reply, async () => {
        const user = await updateAppUser({
          ctx: changing(request, services),
          input: { ...applicationIdsOf(params), changes },
        });
        return { status: 200, body: toAppUserResponse(user) satisfies AppUser };
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/manage/v1/applications/:id/users/:userId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Delete an end user',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    management: {
      scope: 'users:write',
      sameAs: 'DELETE /api/applications/:appId/users/:userId',
    },
    handle: ({ params, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => {
        await deleteAppUser({ ctx: changing(request, services), input: applicationIdsOf(params) });
        return { status: 200, body: { success: true, message: 'User deleted successfully' } };
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/applications/:id/users/:userId/pause',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Pause an end user (their open sessions end at once)',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
    management: {
      scope: 'users:write',
      sameAs: 'POST /api/applications/:appId/users/:userId/pause',
    },
    handle: ({ params, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => {
        const user = await pauseAppUser({
          ctx: changing(request, services),
          input: applicationIdsOf(params),
        });
        return { status: 200, body: toAppUserResponse(user) satisfies AppUser };
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/applications/:id/users/:userId/unpause',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Unpause an end user',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
    management: {
      scope: 'users:write',
      sameAs: 'POST /api/applications/:appId/users/:userId/unpause',
    },
    handle: ({ params, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => {
        const user = await unpauseAppUser({
          ctx: changing(request, services),
          input: applicationIdsOf(params),
        });
        return { status: 200, body: toAppUserResponse(user) satisfies AppUser };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/users/:userId/devices',
    caller: 'manage',
    tag: 'Management API',
    summary: 'An end user\u2019s devices (bound machines) and their seats',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(deviceListSchema) },
    management: {
      scope: 'users:read',
      sameAs: 'GET /api/applications/:appId/users/:userId/devices',
    },
    handle: async ({ params, request }): Promise<Device[]> =>
      (await listUserDevices({ ctx: request.management!, input: applicationIdsOf(params) })).map(
        toDeviceResponse,
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/manage/v1/applications/:id/users/:userId/devices/:deviceId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Release one device (a HWID reset for that machine; its sessions end)',
    params: managedDeviceParamsSchema,
    responses: { 200: ok(releasedDevicesSchema) },
    management: {
      scope: 'users:write',
      sameAs: 'DELETE /api/applications/:appId/users/:userId/devices/:deviceId',
    },
    handle: ({ params, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => ({
        status: 200,
        body: (await releaseUserDevices({
          ctx: changing(request, services),
          input: applicationIdsOf(params),
        })) satisfies ReleasedDevices,
      })),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/users/:userId/subscriptions',
    caller: 'manage',
    tag: 'Management API',
    summary: 'An end user\u2019s subscriptions',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(subscriptionListSchema) },
    management: {
      scope: 'users:read',
      sameAs: 'GET /api/applications/:appId/users/:userId/subscriptions',
    },
    handle: async ({ params, request }, services): Promise<Subscription[]> =>
      listUserSubscriptions({ ctx: changing(request, services), input: applicationIdsOf(params) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/users/:userId/meters',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Where an end user\u2019s usage meters stand',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(userMeterListSchema) },
    management: {
      scope: 'users:read',
      sameAs: 'GET /api/applications/:appId/users/:userId/meters',
    },
    handle: async ({ params, request }, services): Promise<UserMeter[]> =>
      listUserMeters({ ctx: changing(request, services), input: applicationIdsOf(params) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/applications/:id/users/:userId/subscriptions',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Grant a plan to an end user (answers their subscriptions)',
    description: `Without \`expiresAt\`, for the plan\u2019s duration from now. A plan the user holds is a 409.${idempotent}`,
    params: managedAppUserParamsSchema,
    body: grantSubscriptionRequestSchema,
    responses: { 201: ok(subscriptionListSchema, 'Created.') },
    errors: [409],
    management: {
      scope: 'users:write',
      sameAs: 'POST /api/applications/:appId/users/:userId/subscriptions',
    },
    handle: ({ params, body: grant, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => {
        const list = await grantSubscription({
          ctx: changing(request, services),
          input: { ...applicationIdsOf(params), ...grant },
        });
        return { status: 201, body: list satisfies Subscription[] };
      }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/manage/v1/applications/:id/users/:userId/subscriptions/:subscriptionId',
    caller: 'manage',
    tag: 'Management API',
    summary:
      'Extend or shorten a subscription or its updates window (null: lifetime, every release)',
    params: managedSubscriptionParamsSchema,
    body: updateSubscriptionRequestSchema,
    responses: { 200: ok(subscriptionListSchema) },
    management: {
      scope: 'users:write',
      sameAs: 'PUT /api/applications/:appId/users/:userId/subscriptions/:subscriptionId',
    },
    handle: ({ params, body: { expiresAt, updatesUntil }, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => ({
        status: 200,
        body: (await updateSubscription({
          ctx: changing(request, services),
          input: { ...applicationIdsOf(params), expiresAt, updatesUntil },
        })) satisfies Subscription[],
      })),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/manage/v1/applications/:id/users/:userId/subscriptions/:subscriptionId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Remove a subscription (answers the user\u2019s remaining subscriptions)',
    params: managedSubscriptionParamsSchema,
    responses: { 200: ok(subscriptionListSchema) },
    management: {
      scope: 'users:write',
      sameAs: 'DELETE /api/applications/:appId/users/:userId/subscriptions/:subscriptionId',
    },
    handle: ({ params, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => ({
        status: 200,
        body: (await deleteSubscription({
          ctx: changing(request, services),
          input: applicationIdsOf(params),
        })) satisfies Subscription[],
      })),
  }),
];

export function registerManagementAppUserRoutes(app: FastifyInstance, deps: AppUserServices): void {
  registerApplicationRoutes(app, managementAppUserRoutes, deps);
}
