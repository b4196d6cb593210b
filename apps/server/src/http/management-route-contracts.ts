import { z } from 'zod';
import {
  appUserListQuerySchema,
  appUserListSchema,
  appUserSchema,
  applicationParamsSchema,
  applicationSchema,
  applicationStatsSchema,
  createAppUserRequestSchema,
  deletedResponseSchema,
  grantSubscriptionRequestSchema,
  managedAppUserParamsSchema,
  pagingResponseHeadersSchema,
  subscriptionListSchema,
  updateAppUserRequestSchema,
} from '@latchkey/contracts';
import type { ResponseContract, RouteContract } from './route-contracts.ts';

const ok = (schema: z.ZodType, description = 'Success.'): ResponseContract => ({
  description,
  schema,
});

const paged = (schema: z.ZodType, description: string): ResponseContract => ({
  description: `${description} The body is one page; the paging headers carry the total.`,
  schema,
  headers: pagingResponseHeadersSchema,
});

const idempotent =
  ' Send an `Idempotency-Key` header to retry safely: the same key and body within 24 hours answers the first answer without doing the work again.';

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

  'GET /api/manage/v1/applications/:id/users': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'List an application\u2019s end users (paged, with ?search)',
    params: applicationParamsSchema,
    query: appUserListQuerySchema,
    responses: { 200: paged(appUserListSchema, 'End users, newest first.') },
    management: { scope: 'users:read', sameAs: 'GET /api/applications/:id/users' },
  },
  'POST /api/manage/v1/applications/:id/users': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'Create an end user',
    description: `The console\u2019s rules: a username unique in the application, a password of the configured length.${idempotent}`,
    params: applicationParamsSchema,
    body: createAppUserRequestSchema,
    responses: { 201: ok(appUserSchema, 'Created.') },
    errors: [409],
    management: { scope: 'users:write', sameAs: 'POST /api/applications/:id/users' },
  },
  'GET /api/manage/v1/applications/:id/users/:userId': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'One end user',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    management: { scope: 'users:read', sameAs: 'GET /api/applications/:id/users' },
  },
  'PATCH /api/manage/v1/applications/:id/users/:userId': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'Change an end user (absent fields unchanged; set expiresAt to extend or expire)',
    params: managedAppUserParamsSchema,
    body: updateAppUserRequestSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
    management: { scope: 'users:write', sameAs: 'PUT /api/applications/:appId/users/:userId' },
  },
  'DELETE /api/manage/v1/applications/:id/users/:userId': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'Delete an end user',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    management: {
      scope: 'users:write',
      sameAs: 'DELETE /api/applications/:appId/users/:userId',
    },
  },
  'POST /api/manage/v1/applications/:id/users/:userId/pause': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'Pause an end user (their open sessions end at once)',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
    management: {
      scope: 'users:write',
      sameAs: 'POST /api/applications/:appId/users/:userId/pause',
    },
  },
  'POST /api/manage/v1/applications/:id/users/:userId/unpause': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'Unpause an end user',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
    management: {
      scope: 'users:write',
      sameAs: 'POST /api/applications/:appId/users/:userId/unpause',
    },
  },
  'GET /api/manage/v1/applications/:id/users/:userId/subscriptions': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'An end user\u2019s subscriptions',
    params: managedAppUserParamsSchema,
    responses: { 200: ok(subscriptionListSchema) },
    management: {
      scope: 'users:read',
      sameAs: 'GET /api/applications/:appId/users/:userId/subscriptions',
    },
  },
  'POST /api/manage/v1/applications/:id/users/:userId/subscriptions': {
    caller: 'manage',
    tag: 'Management API',
    summary: 'Grant a plan to an end user (answers their subscriptions)',
    description: `Without \`expiresAt\`, for the plan\u2019s duration from now. A plan the user holds is a 409.${idempotent}`,
    params: managedAppUserParamsSchema,
    body: grantSubscriptionRequestSchema,
    responses: { 201: ok(subscriptionListSchema, 'Created.') },
    errors: [409],
    management: {
      scope: 'users:write',
      sameAs: 'POST /api/applications/:appId/users/:userId/subscriptions',
    },
  },
};
