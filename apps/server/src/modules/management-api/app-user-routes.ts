import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  appUserListQuerySchema,
  applicationParamsSchema,
  createAppUserRequestSchema,
  endUserPasswordProblem,
  grantSubscriptionRequestSchema,
  managedAppUserParamsSchema,
  managedDeviceParamsSchema,
  managedSubscriptionParamsSchema,
  updateSubscriptionRequestSchema,
  type Device,
  type ReleasedDevices,
  updateAppUserRequestSchema,
  type AppUser,
  type AppUserListRow,
  type Subscription,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { badRequest } from '../../lib/errors.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import {
  createAppUser,
  deleteAppUser,
  getAppUser,
  listAppUsers,
  pauseAppUser,
  toAppUserResponse,
  unpauseAppUser,
  updateAppUser,
} from '../app-users/index.ts';
import {
  activeEntitlements,
  deleteSubscription,
  grantSubscription,
  listUserSubscriptions,
  updateSubscription,
} from '../subscriptions/index.ts';
import { listUserDevices, releaseUserDevices, toDeviceResponse } from '../devices/index.ts';
import { answerManagementWrite } from './management-write.ts';
import { reachableParams } from './reachable-applications.ts';

/**
 * End users through the management API: the console's verbs and shapes, within the
 * token's applications. Writes go through answerManagementWrite (idempotency, audit).
 */
export function registerManagementAppUserRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config' | 'applicationEvents'> & {
    activity: Pick<ActivityRecorder, 'noteWritten'>;
  },
): void {
  const reachable = (request: FastifyRequest) => {
    const { ctx, ids } = reachableParams(request, applicationParamsSchema);
    return { ctx, applicationId: ids.applicationId };
  };
  const reachableUser = (request: FastifyRequest) =>
    reachableParams(request, managedAppUserParamsSchema);
  const changing = (request: FastifyRequest) => ({
    ...request.management!,
    applicationEvents: deps.applicationEvents,
    activity: deps.activity,
  });
  // The console's rule: only new passwords must meet the minimum length.
  const assertAcceptablePassword = (password: string | undefined) => {
    if (password === undefined) return;
    const problem = endUserPasswordProblem(password, deps.config.endUserPasswordMinLength);
    if (problem) throw badRequest(`password: ${problem}`);
  };

  app.get('/applications/:id/users', async (request, reply): Promise<AppUserListRow[]> => {
    const { ctx, applicationId } = reachable(request);
    const query = parseInput(appUserListQuerySchema, request.query);
    const page = await listAppUsers({ ctx, input: { applicationId, ...query } });
    setPagingHeaders(reply, query, page);
    return page.rows.map((user) => ({
      ...toAppUserResponse(user),
      subscriptions: user.subscriptions,
      entitlements: activeEntitlements(user.subscriptions),
      deviceLimit: user.deviceLimit,
    }));
  });

  app.post('/applications/:id/users', async (request, reply) => {
    const { applicationId } = reachable(request);
    const user = parseInput(createAppUserRequestSchema, request.body);
    assertAcceptablePassword(user.password);
    return answerManagementWrite(request, reply, async () => {
      const created = await createAppUser({
        ctx: changing(request),
        input: { applicationId, user },
      });
      return { status: 201, body: toAppUserResponse(created) satisfies AppUser };
    });
  });

  app.get('/applications/:id/users/:userId', async (request): Promise<AppUser> => {
    const { ctx, ids } = reachableUser(request);
    return toAppUserResponse(await getAppUser({ ctx, input: ids }));
  });

  app.patch('/applications/:id/users/:userId', async (request, reply) => {
    const { ids } = reachableUser(request);
    const changes = parseInput(updateAppUserRequestSchema, request.body);
    assertAcceptablePassword(changes.password);
    return answerManagementWrite(request, reply, async () => {
      const user = await updateAppUser({ ctx: changing(request), input: { ...ids, changes } });
      return { status: 200, body: toAppUserResponse(user) satisfies AppUser };
    });
  });

  app.delete('/applications/:id/users/:userId', async (request, reply) => {
    const { ids } = reachableUser(request);
    return answerManagementWrite(request, reply, async () => {
      await deleteAppUser({ ctx: changing(request), input: ids });
      return { status: 200, body: { success: true, message: 'User deleted successfully' } };
    });
  });

  for (const [action, verb] of [
    ['pause', pauseAppUser],
    ['unpause', unpauseAppUser],
  ] as const) {
    app.post(`/applications/:id/users/:userId/${action}`, async (request, reply) => {
      const { ids } = reachableUser(request);
      return answerManagementWrite(request, reply, async () => {
        const user = await verb({ ctx: changing(request), input: ids });
        return { status: 200, body: toAppUserResponse(user) satisfies AppUser };
      });
    });
  }

  app.get('/applications/:id/users/:userId/devices', async (request): Promise<Device[]> => {
    const { ctx, ids } = reachableUser(request);
    return (await listUserDevices({ ctx, input: ids })).map(toDeviceResponse);
  });

  app.delete('/applications/:id/users/:userId/devices/:deviceId', async (request, reply) => {
    const { ids } = reachableParams(request, managedDeviceParamsSchema);
    return answerManagementWrite(request, reply, async () => ({
      status: 200,
      body: (await releaseUserDevices({
        ctx: changing(request),
        input: ids,
      })) satisfies ReleasedDevices,
    }));
  });

  app.get(
    '/applications/:id/users/:userId/subscriptions',
    async (request): Promise<Subscription[]> => {
      const { ids } = reachableUser(request);
      return listUserSubscriptions({ ctx: changing(request), input: ids });
    },
  );

  const reachableSubscription = (request: FastifyRequest) =>
    reachableParams(request, managedSubscriptionParamsSchema).ids;

  app.patch(
    '/applications/:id/users/:userId/subscriptions/:subscriptionId',
    async (request, reply) => {
      const ids = reachableSubscription(request);
      const { expiresAt } = parseInput(updateSubscriptionRequestSchema, request.body);
      return answerManagementWrite(request, reply, async () => ({
        status: 200,
        body: (await updateSubscription({
          ctx: changing(request),
          input: { ...ids, expiresAt },
        })) satisfies Subscription[],
      }));
    },
  );

  app.delete(
    '/applications/:id/users/:userId/subscriptions/:subscriptionId',
    async (request, reply) => {
      const ids = reachableSubscription(request);
      return answerManagementWrite(request, reply, async () => ({
        status: 200,
        body: (await deleteSubscription({
          ctx: changing(request),
          input: ids,
        })) satisfies Subscription[],
      }));
    },
  );

  app.post('/applications/:id/users/:userId/subscriptions', async (request, reply) => {
    const { ids } = reachableUser(request);
    const grant = parseInput(grantSubscriptionRequestSchema, request.body);
    return answerManagementWrite(request, reply, async () => {
      const list = await grantSubscription({ ctx: changing(request), input: { ...ids, ...grant } });
      return { status: 201, body: list satisfies Subscription[] };
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const managementAppUserRoutes: readonly RouteDefinition[] = [];
