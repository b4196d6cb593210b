import { z } from 'zod';

import { ok, type RouteContract } from './route-contract.ts';

export {
  routeTags,
  type ResponseContract,
  type RouteCaller,
  type RouteContract,
  type RouteTag,
} from './route-contract.ts';

/** What GET /api/openapi.json answers, as far as a check needs (the rest is OpenAPI's own). */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument' });

/**
 * The contracts of the API reference's routes, which its plugin serves rather than a module's
 * definitions. Keyed `METHOD /path` as registered; route-table.ts adds every module's
 * definitions and the client calls to them.
 */
export const routeContracts: Record<string, RouteContract> = {
  'GET /api/openapi.json': {
    caller: 'public',
    tag: 'Service',
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: ok(openApiDocumentSchema) },
  },
  'GET /api/reference': {
    caller: 'public',
    tag: 'Service',
    summary: 'The rendered reference (redirects to /api/reference/)',
    responses: { 301: { description: 'Redirects to /api/reference/.' } },
  },
  'GET /api/reference/': {
    caller: 'public',
    tag: 'Service',
    summary: 'The rendered reference of this document (Scalar)',
    responses: { 200: { description: 'The reference page.', mediaType: 'text/html' } },
  },
  'GET /api/reference/js/scalar.js': {
    caller: 'public',
    tag: 'Service',
    summary: 'The reference page\u2019s script, served from the installed package',
    responses: {
      200: { description: 'Scalar\u2019s bundle.', mediaType: 'application/javascript' },
    },
  },
};
