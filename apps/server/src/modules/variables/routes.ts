import type { FastifyInstance } from 'fastify';
import {
  appUserParamsSchema,
  applicationParamsSchema,
  applicationVariableListQuerySchema,
  applicationVariableListSchema,
  applicationVariableParamsSchema,
  applicationVariableSchema,
  createApplicationVariableRequestSchema,
  deletedResponseSchema,
  putUserVariableRequestSchema,
  updateApplicationVariableRequestSchema,
  userVariableListSchema,
  userVariableParamsSchema,
  userVariableSchema,
  variableBodyLimitBytes,
  variableLimits,
  type ApplicationVariable,
  type DeletedResponse,
  type UserVariable,
} from '@latchkey/contracts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { createApplicationVariable } from './create-application-variable.ts';
import { deleteApplicationVariable } from './delete-application-variable.ts';
import { deleteUserVariable } from './delete-user-variable.ts';
import { listApplicationVariables } from './list-application-variables.ts';
import { listUserVariables } from './list-user-variables.ts';
import { putUserVariable } from './put-user-variable.ts';
import { updateApplicationVariable } from './update-application-variable.ts';

const defineRoute = routeDefiner<void>();

/**
 * Remote variables, the owner's side: an application's variables, and each end user's.
 * Application variables are application settings; a user's variables are part of editing
 * users. A value may be 64 KB, more than the server's default body limit once JSON-escaped:
 * each write accepts a body that holds its largest value.
 */
export const variableRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/variables',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Variables',
    summary: 'List an application\u2019s variables, by name',
    description: '`search` matches the name or the value, in any case.',
    params: applicationParamsSchema,
    query: applicationVariableListQuerySchema,
    responses: { 200: ok(applicationVariableListSchema) },
    handle: ({ params, query, request }): Promise<ApplicationVariable[]> =>
      listApplicationVariables({
        ctx: request.owner!,
        input: { applicationId: params.id, search: query.search },
      }),
  }),
  defineRoute({
    bodyLimit: variableBodyLimitBytes(variableLimits.applicationValueBytes),
    method: 'POST',
    path: '/api/applications/:id/variables',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Variables',
    summary: 'Create an application variable',
    description:
      'A name is 1 to 64 letters, digits, `_`, `.` or `-`; a value at most 64 KB (UTF-8). `requiresSession` is true unless sent false. A name the application already has is a 409.',
    params: applicationParamsSchema,
    body: createApplicationVariableRequestSchema,
    responses: { 201: ok(applicationVariableSchema, 'Created.') },
    errors: [409],
    handle: async ({ params, body, request, reply }) => {
      const created = await createApplicationVariable({
        ctx: request.owner!,
        input: { applicationId: params.id, variable: body },
      });
      return reply.status(201).send(created satisfies ApplicationVariable);
    },
  }),
  defineRoute({
    bodyLimit: variableBodyLimitBytes(variableLimits.applicationValueBytes),
    method: 'PUT',
    path: '/api/applications/:id/variables/:variableId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Variables',
    summary: 'Update an application variable',
    description:
      'Absent fields stay as they are. Programs read the new value from their next call.',
    params: applicationVariableParamsSchema,
    body: updateApplicationVariableRequestSchema,
    responses: { 200: ok(applicationVariableSchema) },
    errors: [409],
    handle: ({ params, body, request }): Promise<ApplicationVariable> =>
      updateApplicationVariable({
        ctx: request.owner!,
        input: { applicationId: params.id, variableId: params.variableId, changes: body },
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id/variables/:variableId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Variables',
    summary: 'Delete an application variable',
    params: applicationVariableParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }): Promise<DeletedResponse> => {
      await deleteApplicationVariable({
        ctx: request.owner!,
        input: { applicationId: params.id, variableId: params.variableId },
      });
      return { success: true, message: 'Variable deleted successfully' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:appId/users/:userId/variables',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Variables',
    summary: 'List an end user\u2019s variables, by name',
    params: appUserParamsSchema,
    responses: { 200: ok(userVariableListSchema) },
    handle: ({ params, request }): Promise<UserVariable[]> =>
      listUserVariables({
        ctx: request.owner!,
        input: { applicationId: params.appId, userId: params.userId },
      }),
  }),
  defineRoute({
    bodyLimit: variableBodyLimitBytes(variableLimits.userValueBytes),
    method: 'PUT',
    path: '/api/applications/:appId/users/:userId/variables/:name',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Variables',
    summary: 'Create or replace an end user\u2019s variable',
    description:
      'A value at most 16 KB (UTF-8); `readOnly` (default false) stops the program changing it. A new name when the user already holds 100 is a 409.',
    params: userVariableParamsSchema,
    body: putUserVariableRequestSchema,
    responses: { 200: ok(userVariableSchema) },
    errors: [409],
    handle: ({ params, body, request }): Promise<UserVariable> => {
      const { appId, userId, name } = params;
      return putUserVariable({
        ctx: request.owner!,
        input: { applicationId: appId, userId, name, variable: body },
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId/variables/:name',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Variables',
    summary: 'Delete an end user\u2019s variable',
    params: userVariableParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }): Promise<DeletedResponse> => {
      const { appId, userId, name } = params;
      await deleteUserVariable({
        ctx: request.owner!,
        input: { applicationId: appId, userId, name },
      });
      return { success: true, message: 'Variable deleted successfully' };
    },
  }),
];

/** Remote variables, the owner's side. Registered inside the owner-guarded scope. */
export function registerVariableRoutes(app: FastifyInstance): void {
  registerRoutes(app, variableRoutes, undefined);
}
