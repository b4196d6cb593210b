import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  appUserListQuerySchema,
  appUserParamsSchema,
  applicationParamsSchema,
  BULK_BODY_LIMIT_BYTES,
  bulkAppUserRequestSchema,
  type BulkAppUserResult,
  createAppUserRequestSchema,
  endUserPasswordProblem,
  updateAppUserRequestSchema,
  type AppUser,
  type AppUserListRow,
  type DeletedResponse,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { badRequest } from '../../lib/errors.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { activeEntitlements } from '../subscriptions/index.ts';
import { createAppUser } from './create-app-user.ts';
import { deleteAppUser } from './delete-app-user.ts';
import { listAppUsers } from './list-app-users.ts';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';
import { pauseAppUser } from './pause-app-user.ts';
import { runBulkAppUserAction } from './run-bulk-app-user-action.ts';
import { resetAppUserHwid } from './reset-app-user-hwid.ts';
import { toAppUserResponse } from './to-app-user-response.ts';
import { unpauseAppUser } from './unpause-app-user.ts';
import { updateAppUser } from './update-app-user.ts';

/** End users of the owner's applications. Registered inside the owner scope. */
export function registerAppUserRoutes(
  app: FastifyInstance,
  {
    config,
    applicationEvents,
    activity,
    ownerEvents,
  }: {
    config: Pick<Config, 'endUserPasswordMinLength'>;
    applicationEvents: ApplicationEvents;
    activity: Pick<ActivityRecorder, 'noteWritten'>;
    ownerEvents: Pick<OwnerEventHub, 'publish'>;
  },
): void {
  /**
   * Verbs that change a user announce it, so caches of the user's standing drop it, and tell
   * the recorder of the device events they write (a HWID set or reset).
   */
  const changingCtx = (request: FastifyRequest) => ({
    ...request.owner!,
    applicationEvents,
    activity,
  });
  // Only new passwords meet the rule: users with older, shorter ones can still log in.
  const assertAcceptablePassword = (password: string | undefined) => {
    if (password === undefined) return;
    const problem = endUserPasswordProblem(password, config.endUserPasswordMinLength);
    if (problem) throw badRequest(`password: ${problem}`);
  };

  app.get('/api/applications/:id/users', async (request, reply): Promise<AppUserListRow[]> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const query = parseInput(appUserListQuerySchema, request.query);
    const page = await listAppUsers({
      ctx: request.owner!,
      input: { applicationId: id, ...query },
    });
    setPagingHeaders(reply, query, page);
    return page.rows.map((user) => ({
      ...toAppUserResponse(user),
      subscriptions: user.subscriptions,
      entitlements: activeEntitlements(user.subscriptions),
      deviceLimit: user.deviceLimit,
    }));
  });

  app.post('/api/applications/:id/users', async (request, reply) => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const user = parseInput(createAppUserRequestSchema, request.body);
    assertAcceptablePassword(user.password);
    const created = await createAppUser({
      ctx: changingCtx(request),
      input: { applicationId: id, user },
    });
    return reply.status(201).send(toAppUserResponse(created) satisfies AppUser);
  });

  app.put('/api/applications/:appId/users/:userId', async (request): Promise<AppUser> => {
    const { appId, userId } = parseInput(appUserParamsSchema, request.params);
    const changes = parseInput(updateAppUserRequestSchema, request.body);
    assertAcceptablePassword(changes.password);
    const user = await updateAppUser({
      ctx: changingCtx(request),
      input: { applicationId: appId, userId, changes },
    });
    return toAppUserResponse(user);
  });

  app.delete(
    '/api/applications/:appId/users/:userId',
    async (request): Promise<DeletedResponse> => {
      const { appId, userId } = parseInput(appUserParamsSchema, request.params);
      await deleteAppUser({ ctx: changingCtx(request), input: { applicationId: appId, userId } });
      return { success: true, message: 'User deleted successfully' };
    },
  );

  // Synchronous on purpose: the answer acknowledges every batch written (progress travels on
  // the event stream meanwhile); batches already committed stay done if the connection drops.
  app.post(
    '/api/applications/:id/users/bulk',
    { bodyLimit: BULK_BODY_LIMIT_BYTES },
    async (request): Promise<BulkAppUserResult> => {
      const { id } = parseInput(applicationParamsSchema, request.params);
      const bulk = parseInput(bulkAppUserRequestSchema, request.body);
      return runBulkAppUserAction({
        ctx: { ...changingCtx(request), ownerEvents },
        input: { ...bulk, applicationId: id },
      });
    },
  );

  app.post('/api/applications/:appId/users/:userId/pause', async (request): Promise<AppUser> => {
    const { appId, userId } = parseInput(appUserParamsSchema, request.params);
    const user = await pauseAppUser({
      ctx: changingCtx(request),
      input: { applicationId: appId, userId },
    });
    return toAppUserResponse(user);
  });

  app.post('/api/applications/:appId/users/:userId/unpause', async (request): Promise<AppUser> => {
    const { appId, userId } = parseInput(appUserParamsSchema, request.params);
    const user = await unpauseAppUser({
      ctx: changingCtx(request),
      input: { applicationId: appId, userId },
    });
    return toAppUserResponse(user);
  });

  app.post(
    '/api/applications/:appId/users/:userId/reset-hwid',
    async (request): Promise<AppUser> => {
      const { appId, userId } = parseInput(appUserParamsSchema, request.params);
      const user = await resetAppUserHwid({
        ctx: changingCtx(request),
        input: { applicationId: appId, userId },
      });
      return toAppUserResponse(user);
    },
  );
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const appUserRoutes: readonly RouteDefinition[] = [];
