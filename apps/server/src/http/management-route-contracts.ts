import { z } from 'zod';
import {
  applicationSchema,
  applicationParamsSchema,
  applicationStatsSchema,
} from '@latchkey/contracts';
import type { ResponseContract, RouteContract } from './route-contracts.ts';

const ok = (schema: z.ZodType, description = 'Success.'): ResponseContract => ({
  description,
  schema,
});

/**
 * The management API's routes (issue 27): the owner API's shapes, a bearer token, and for each
 * the scope it needs and the console route it mirrors (whose permission the creator needs).
 * Spread into route-contracts.ts, so the OpenAPI document and the answer checks cover them.
 */
export const managementRouteContracts: Record<string, RouteContract> = {
  'GET /api/manage/v1/applications': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'List the applications the token may reach',
    responses: { 200: ok(z.array(applicationSchema)) },
    management: { scope: 'applications:read', sameAs: 'GET /api/applications' },
  },
  'GET /api/manage/v1/applications/:id': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'One application',
    params: applicationParamsSchema,
    responses: { 200: ok(applicationSchema) },
    management: { scope: 'applications:read', sameAs: 'GET /api/applications' },
  },
  'GET /api/manage/v1/applications/:id/stats': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'An application\u2019s numbers, as its console page shows them',
    params: applicationParamsSchema,
    responses: { 200: ok(applicationStatsSchema) },
    management: { scope: 'applications:read', sameAs: 'GET /api/applications/:id/stats' },
  },
};
