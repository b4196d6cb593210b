import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  appUserListQuerySchema,
  appUserListSchema,
  appUserParamsSchema,
  appUserSchema,
  applicationParamsSchema,
  BULK_BODY_LIMIT_BYTES,
  bulkAppUserRequestSchema,
  bulkAppUserResultSchema,
  type BulkAppUserResult,
  createAppUserRequestSchema,
  deletedResponseSchema,
  endUserPasswordProblem,
  updateAppUserRequestSchema,
  type AppUser,
  type AppUserListRow,
  type DeletedResponse,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { AppError } from '../../lib/errors.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { createAppUser } from './create-app-user.ts';
import { deleteAppUser } from './delete-app-user.ts';
import { listAppUsers } from './list-app-users.ts';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';
import { markEmailVerified } from './mark-email-verified.ts';
import { pauseAppUser } from './pause-app-user.ts';
import { runBulkAppUserAction } from './run-bulk-app-user-action.ts';
import { resetAppUserHwid } from './reset-app-user-hwid.ts';
import { toAppUserListRow, toAppUserResponse } from './to-app-user-response.ts';
import { unpauseAppUser } from './unpause-app-user.ts';
import { updateAppUser } from './update-app-user.ts';

interface AppUserServices {
  config: Pick<Config, 'endUserPasswordMinLength'>;
  applicationEvents: ApplicationEvents;
  activity: Pick<ActivityRecorder, 'noteWritten'>;
  ownerEvents: Pick<OwnerEventHub, 'publish'>;
}

const defineRoute = routeDefiner<AppUserServices>();

/**
 * Verbs that change a user announce it, so caches of the user's standing drop it, and tell
 * the recorder of the device events they write (a HWID set or reset).
 */
const changingCtx = (
  request: FastifyRequest,
  { applicationEvents, activity }: AppUserServices,
) => ({
  ...request.owner!,
  applicationEvents,
  activity,
});

// Only new passwords meet the rule: users with older, shorter ones can still log in.
const assertAcceptablePassword = (password: string | undefined, { config }: AppUserServices) => {
  if (password === undefined) return;
  const problem = endUserPasswordProblem(password, config.endUserPasswordMinLength);
  if (problem) {
    throw new AppError('BAD_REQUEST', `password: ${problem}`, undefined, [
      { field: 'password', message: problem },
    ]);
  }
};

// Synchronous on purpose: the answer acknowledges every batch written (progress travels on
// the event stream meanwhile); batches already committed stay done if the connection drops.
const bulkAppUserRoute = defineRoute({
  method: 'POST',
  path: '/api/applications/:id/users/bulk',
  permission: 'manage_applications',
  // A bulk request names up to thousands of users, beyond the server's default body limit.
  bodyLimit: BULK_BODY_LIMIT_BYTES,
  caller: 'owner',
  tag: 'End users',
  summary: 'Pause, unpause, set expiry, extend, reset HWID or delete many end users',
  description:
    'The users named in `userIds`, or every user the list shows for `matching.search`. Batches of at most 1,000, each its own transaction; `bulk_progress` events on the owner event stream after each. Answers when every batch is done.',
  params: applicationParamsSchema,
  body: bulkAppUserRequestSchema,
  responses: { 200: ok(bulkAppUserResultSchema) },
  handle: async ({ params, body, request }, services): Promise<BulkAppUserResult> =>
    runBulkAppUserAction({
      ctx: { ...changingCtx(request, services), ownerEvents: services.ownerEvents },
      input: { ...body, applicationId: params.id },
    }),
});

/** End users of the owner's applications. */
export const appUserRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/users',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'End users',
    summary: 'List end users',
    params: applicationParamsSchema,
    query: appUserListQuerySchema,
    responses: { 200: paged(appUserListSchema, 'End users, newest first.') },
    handle: async ({ params, query, request, reply }): Promise<AppUserListRow[]> => {
      const page = await listAppUsers({
        ctx: request.owner!,
        input: { applicationId: params.id, ...query },
      });
      setPagingHeaders(reply, query, page);
      return page.rows.map(toAppUserListRow);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/users',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Create an end user',
    params: applicationParamsSchema,
    body: createAppUserRequestSchema,
    responses: { 201: ok(appUserSchema, 'Created.') },
    errors: [409],
    handle: async ({ params, body, request, reply }, services) => {
      assertAcceptablePassword(body.password, services);
      const created = await createAppUser({
        ctx: changingCtx(request, services),
        input: { applicationId: params.id, user: body },
      });
      return reply.status(201).send(toAppUserResponse(created) satisfies AppUser);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/applications/:appId/users/:userId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Update an end user',
    params: appUserParamsSchema,
    body: updateAppUserRequestSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
    handle: async ({ params, body, request }, services): Promise<AppUser> => {
      assertAcceptablePassword(body.password, services);
      const user = await updateAppUser({
        ctx: changingCtx(request, services),
        input: { applicationId: params.appId, userId: params.userId, changes: body },
      });
      return toAppUserResponse(user);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Delete an end user',
    params: appUserParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }, services): Promise<DeletedResponse> => {
      await deleteAppUser({
        ctx: changingCtx(request, services),
        input: { applicationId: params.appId, userId: params.userId },
      });
      return { success: true, message: 'User deleted successfully' };
    },
  }),
  bulkAppUserRoute,
  defineRoute({
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/pause',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Pause an end user (ends their sessions)',
    params: appUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    handle: async ({ params, request }, services): Promise<AppUser> => {
      const user = await pauseAppUser({
        ctx: changingCtx(request, services),
        input: { applicationId: params.appId, userId: params.userId },
      });
      return toAppUserResponse(user);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/verify-email',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Mark an end user\u2019s e-mail address as verified',
    description:
      'The owner vouches for the address: the user passes an application\u2019s verified-address check as if they had followed the mailed link. Writes email_verified (via owner) to the activity log and webhooks. 409 for a user without an address; one verified already is answered unchanged.',
    params: appUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
    handle: async ({ params, request }, services): Promise<AppUser> => {
      const user = await markEmailVerified({
        ctx: changingCtx(request, services),
        input: { applicationId: params.appId, userId: params.userId },
      });
      return toAppUserResponse(user);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/unpause',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Unpause an end user',
    params: appUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    handle: async ({ params, request }, services): Promise<AppUser> => {
      const user = await unpauseAppUser({
        ctx: changingCtx(request, services),
        input: { applicationId: params.appId, userId: params.userId },
      });
      return toAppUserResponse(user);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/reset-hwid',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Forget the bound hardware id',
    description: 'Releases every device of the user, as `DELETE …/devices` does.',
    params: appUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    handle: async ({ params, request }, services): Promise<AppUser> => {
      const user = await resetAppUserHwid({
        ctx: changingCtx(request, services),
        input: { applicationId: params.appId, userId: params.userId },
      });
      return toAppUserResponse(user);
    },
  }),
];

/** End users of the owner's applications. Registered inside the owner scope. */
export function registerAppUserRoutes(
  app: FastifyInstance,
  { config, applicationEvents, activity, ownerEvents }: AppUserServices,
): void {
  registerRoutes(app, appUserRoutes, { config, applicationEvents, activity, ownerEvents });
}
