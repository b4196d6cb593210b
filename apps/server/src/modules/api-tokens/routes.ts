import type { FastifyInstance } from 'fastify';
import {
  apiTokenListSchema,
  apiTokenParamsSchema,
  createApiTokenRequestSchema,
  createdApiTokenSchema,
  deletedResponseSchema,
  type ApiToken,
  type DeletedResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { createApiToken } from './create-api-token.ts';
import { listApiTokens } from './list-api-tokens.ts';
import { revokeApiToken } from './revoke-api-token.ts';

const defineRoute = routeDefiner<Pick<AppDependencies, 'config'>>();

/** The API Tokens page's routes. */
export const apiTokenRoutes = [
  // A token is a credential that acts as its creator; listing them shows where
  // automation can reach, so reading the list needs the permission too.
  defineRoute({
    method: 'GET',
    path: '/api/api-tokens',
    permission: 'manage_api_tokens',
    caller: 'owner',
    tag: 'API tokens',
    summary: 'List the account\u2019s management API tokens (never their text)',
    responses: { 200: ok(apiTokenListSchema) },
    handle: async ({ request }): Promise<ApiToken[]> => {
      return listApiTokens({ ctx: request.owner! });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/api-tokens',
    permission: 'manage_api_tokens',
    caller: 'owner',
    tag: 'API tokens',
    summary: 'Create a management API token',
    description:
      'The answer carries the token\u2019s text in `token`: the only time it is shown. Only a keyed digest is stored.',
    body: createApiTokenRequestSchema,
    responses: { 201: ok(createdApiTokenSchema, 'Created.') },
    errors: [404],
    handle: async ({ body, request, reply }, { config }) => {
      const created = await createApiToken({
        ctx: { ...request.owner!, serverSecret: config.serverSecret },
        input: body,
      });
      return reply.status(201).send(created);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/api-tokens/:id',
    permission: 'manage_api_tokens',
    caller: 'owner',
    tag: 'API tokens',
    summary: 'Revoke a management API token (refused everywhere at once)',
    params: apiTokenParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }): Promise<DeletedResponse> => {
      await revokeApiToken({ ctx: request.owner!, input: { tokenId: params.id } });
      return { success: true, message: 'API token revoked' };
    },
  }),
];

/** The API Tokens page's routes. Registered inside the owner-guarded scope. */
export function registerApiTokenRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'>,
): void {
  registerRoutes(app, apiTokenRoutes, deps);
}
