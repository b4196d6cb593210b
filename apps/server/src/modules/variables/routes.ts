import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  appUserParamsSchema,
  applicationParamsSchema,
  applicationVariableListQuerySchema,
  applicationVariableParamsSchema,
  createApplicationVariableRequestSchema,
  putUserVariableRequestSchema,
  updateApplicationVariableRequestSchema,
  userVariableParamsSchema,
  variableBodyLimitBytes,
  variableLimits,
  type ApplicationVariable,
  type DeletedResponse,
  type UserVariable,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import { createApplicationVariable } from './create-application-variable.ts';
import { deleteApplicationVariable } from './delete-application-variable.ts';
import { deleteUserVariable } from './delete-user-variable.ts';
import { listApplicationVariables } from './list-application-variables.ts';
import { listUserVariables } from './list-user-variables.ts';
import { putUserVariable } from './put-user-variable.ts';
import { updateApplicationVariable } from './update-application-variable.ts';

/**
 * Remote variables, the owner's side: an application's variables, and each end
 * user's. Registered inside the owner-guarded scope. A value may be 64 KB, more than the
 * server's default body limit once JSON-escaped, so the writes carry their own limit.
 */
export function registerVariableRoutes(app: FastifyInstance): void {
  // Never below the server's own limit, which an operator may have raised.
  const bodyLimitFor = (valueBytes: number) =>
    Math.max(app.initialConfig.bodyLimit ?? 0, variableBodyLimitBytes(valueBytes));
  const applicationVariableBodyLimit = bodyLimitFor(variableLimits.applicationValueBytes);
  const userVariableBodyLimit = bodyLimitFor(variableLimits.userValueBytes);

  app.get('/api/applications/:id/variables', async (request): Promise<ApplicationVariable[]> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const { search } = parseInput(applicationVariableListQuerySchema, request.query);
    return listApplicationVariables({
      ctx: request.owner!,
      input: { applicationId: id, search },
    });
  });

  app.post(
    '/api/applications/:id/variables',
    { bodyLimit: applicationVariableBodyLimit },
    async (request, reply) => {
      const { id } = parseInput(applicationParamsSchema, request.params);
      const variable = parseInput(createApplicationVariableRequestSchema, request.body);
      const created = await createApplicationVariable({
        ctx: request.owner!,
        input: { applicationId: id, variable },
      });
      return reply.status(201).send(created satisfies ApplicationVariable);
    },
  );

  app.put(
    '/api/applications/:id/variables/:variableId',
    { bodyLimit: applicationVariableBodyLimit },
    async (request): Promise<ApplicationVariable> => {
      const { id, variableId } = parseInput(applicationVariableParamsSchema, request.params);
      const changes = parseInput(updateApplicationVariableRequestSchema, request.body);
      return updateApplicationVariable({
        ctx: request.owner!,
        input: { applicationId: id, variableId, changes },
      });
    },
  );

  app.delete(
    '/api/applications/:id/variables/:variableId',
    async (request): Promise<DeletedResponse> => {
      const { id, variableId } = parseInput(applicationVariableParamsSchema, request.params);
      await deleteApplicationVariable({
        ctx: request.owner!,
        input: { applicationId: id, variableId },
      });
      return { success: true, message: 'Variable deleted successfully' };
    },
  );

  const userBase = '/api/applications/:appId/users/:userId/variables';

  app.get(userBase, async (request): Promise<UserVariable[]> => {
    const { appId, userId } = parseInput(appUserParamsSchema, request.params);
    return listUserVariables({ ctx: request.owner!, input: { applicationId: appId, userId } });
  });

  app.put(
    `${userBase}/:name`,
    { bodyLimit: userVariableBodyLimit },
    async (request): Promise<UserVariable> => {
      const { appId, userId, name } = parseInput(userVariableParamsSchema, request.params);
      const variable = parseInput(putUserVariableRequestSchema, request.body);
      return putUserVariable({
        ctx: request.owner!,
        input: { applicationId: appId, userId, name, variable },
      });
    },
  );

  app.delete(`${userBase}/:name`, async (request): Promise<DeletedResponse> => {
    const { appId, userId, name } = parseInput(userVariableParamsSchema, request.params);
    await deleteUserVariable({
      ctx: request.owner!,
      input: { applicationId: appId, userId, name },
    });
    return { success: true, message: 'Variable deleted successfully' };
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const variableRoutes: readonly RouteDefinition[] = [];
