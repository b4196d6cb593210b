import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  apiTokenParamsSchema,
  createApiTokenRequestSchema,
  type ApiToken,
  type DeletedResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { createApiToken } from './create-api-token.ts';
import { listApiTokens } from './list-api-tokens.ts';
import { revokeApiToken } from './revoke-api-token.ts';

/** The API Tokens page's routes. Registered inside the owner-guarded scope. */
export function registerApiTokenRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'>,
): void {
  const { serverSecret } = deps.config;

  app.get('/api/api-tokens', async (request): Promise<ApiToken[]> => {
    return listApiTokens({ ctx: request.owner! });
  });

  app.post('/api/api-tokens', async (request, reply) => {
    const input = parseInput(createApiTokenRequestSchema, request.body);
    const created = await createApiToken({ ctx: { ...request.owner!, serverSecret }, input });
    return reply.status(201).send(created);
  });

  app.delete('/api/api-tokens/:id', async (request): Promise<DeletedResponse> => {
    const { id } = parseInput(apiTokenParamsSchema, request.params);
    await revokeApiToken({ ctx: request.owner!, input: { tokenId: id } });
    return { success: true, message: 'API token revoked' };
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const apiTokenRoutes: readonly RouteDefinition[] = [];
