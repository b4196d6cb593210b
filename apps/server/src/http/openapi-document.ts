import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { clientApiHeaders, clientRequestHeadersSchema } from '@latchkey/contracts';
import { documentedResponses } from './documented-responses.ts';
import { routeTags, type RouteContract } from './route-contract.ts';

export type OpenApiDocument = ReturnType<typeof createDocument>;

const ownerRequestHeadersSchema = z.object({
  'x-account-id': z.string().optional().meta({
    description:
      'The account id the console believes is signed in; a mismatch with the session is a 403.',
  }),
});

/** `/api/applications/:id` -> `/api/applications/{id}` */
export const openApiPathOf = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * The OpenAPI 3.1 document of every route, generated from the route contracts and so from the
 * zod schemas of packages/contracts: nothing in it is written by hand. Built once at start-up.
 */
export function createOpenApiDocument(
  contracts: Readonly<Record<string, RouteContract>>,
): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const [key, contract] of Object.entries(contracts)) {
    const [method, url] = key.split(' ') as [string, string];
    const path = openApiPathOf(url);
    paths[path] = { ...paths[path], [method.toLowerCase()]: operationOf(key, contract) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Latchkey API',
      version: '1',
      description:
        'The client API (`/api/v1`, for vendors\u2019 programs; docs/client-api.md), the management API (`/api/manage/v1`, for shops and bots; docs/management-api.md) and the owner API (`/api`, used by the console). Generated from the zod contracts in packages/contracts.',
    },
    tags: routeTags.map((tag) => ({ ...tag })),
    paths,
    components: {
      securitySchemes: {
        ownerSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'latchkey_session',
          description:
            'Set by POST /api/auth/firebase-login (`__Host-latchkey_session` in production). Mutations must also come from the console\u2019s Origin.',
        },
        clientApiKey: { type: 'apiKey', in: 'header', name: clientApiHeaders.apiKey },
        managementToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'lk_ token',
          description:
            'A management API token from the console\u2019s API Tokens page. Each operation lists the scope it needs.',
        },
        portalSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'latchkey_portal',
          description:
            'Set by POST /api/portal/{publicId}/session, for that path only (`__Secure-latchkey_portal` in production). Mutations must also come from this site\u2019s Origin.',
        },
      },
    },
  });
}

function operationOf(key: string, contract: RouteContract): ZodOpenApiOperationObject {
  const headers =
    contract.caller === 'client'
      ? clientRequestHeadersSchema
      : contract.caller === 'owner'
        ? ownerRequestHeadersSchema
        : undefined;
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, response] of Object.entries(documentedResponses(key, contract))) {
    responses[status as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: response.description,
      ...(response.schema
        ? {
            content: {
              [response.jsonMediaType ?? 'application/json']: { schema: response.schema },
              ...(response.plainTexts
                ? { 'text/plain': { schema: z.enum(response.plainTexts as [string, ...string[]]) } }
                : {}),
            },
          }
        : response.mediaType
          ? { content: { [response.mediaType]: { schema: z.string() } } }
          : {}),
      ...(response.headers ? { headers: response.headers } : {}),
    };
  }
  return {
    tags: [contract.tag],
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    ...(contract.caller === 'owner' ? { security: [{ ownerSession: [] }] } : {}),
    ...(contract.caller === 'client' ? { security: [{ clientApiKey: [] }] } : {}),
    ...(contract.caller === 'portal' ? { security: [{ portalSession: [] }] } : {}),
    // OpenAPI 3.1 lets a non-OAuth scheme list the roles it needs: here, the token's scope.
    ...(contract.management
      ? {
          security: [{ managementToken: [contract.management.scope] }],
          'x-required-scope': contract.management.scope,
        }
      : {}),
    requestParams: {
      ...(contract.params ? { path: contract.params } : {}),
      ...(contract.query ? { query: contract.query } : {}),
      ...(headers ? { header: headers } : {}),
    },
    ...(contract.body
      ? {
          requestBody: {
            required: true,
            content: { [contract.bodyMediaType ?? 'application/json']: { schema: contract.body } },
          },
        }
      : {}),
    responses,
  };
}
