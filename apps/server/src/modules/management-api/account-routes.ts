import type { FastifyInstance } from 'fastify';
import {
  accountAuditQuerySchema,
  activityLogListSchema,
  activityLogsQuerySchema,
  auditEntryListSchema,
  blacklistEntryListSchema,
  blacklistEntryParamsSchema,
  blacklistEntrySchema,
  blacklistListQuerySchema,
  createBlacklistEntryRequestSchema,
  createWebhookRequestSchema,
  deletedResponseSchema,
  updateWebhookRequestSchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookSchema,
  type ActivityLog,
  type AuditEntry,
  type BlacklistEntry,
  type Webhook,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { listActivityLogs } from '../activity/index.ts';
import { listAccountAuditEntries, toAuditEntryResponse } from '../admin/index.ts';
import {
  createBlacklistEntry,
  deleteBlacklistEntry,
  listBlacklistEntries,
} from '../blacklist/index.ts';
import {
  createWebhook,
  deleteWebhook,
  destinationPolicyFor,
  listWebhooks,
  updateWebhook,
} from '../webhooks/index.ts';
import { accountWide, idempotent } from './management-descriptions.ts';
import { registerAccountWideRoutes } from './management-route-scopes.ts';
import { answerManagementWrite } from './management-write.ts';
import { assertActivityReachable } from './reachable-applications.ts';

/** What the account's routes are given: where a webhook may deliver. */
interface AccountServices {
  destinationPolicy: ReturnType<typeof destinationPolicyFor>;
}

const defineRoute = routeDefiner<AccountServices>();

/** The activity log and the audit trail: a restricted token reads one application at a time. */
const activityRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/activity',
    caller: 'manage',
    tag: 'Management API',
    summary:
      'The activity log, with the console\u2019s filters (?applicationId, ?event, ?search; paged)',
    description:
      'A token restricted to some applications must name one of them with `applicationId`.',
    query: activityLogsQuerySchema,
    responses: { 200: paged(activityLogListSchema, 'Activity-log rows, newest first.') },
    errors: [404],
    management: { scope: 'activity:read', sameAs: 'GET /api/activity-logs' },
    handle: async ({ query, request, reply }): Promise<ActivityLog[]> => {
      const ctx = request.management!;
      assertActivityReachable(ctx, query.applicationId);
      const page = await listActivityLogs({ ctx, input: query });
      setPagingHeaders(reply, query, page);
      return page.rows;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/audit',
    caller: 'manage',
    tag: 'Management API',
    summary:
      'The account\u2019s audit trail: every change it made, in the console or through a token (paged)',
    description:
      'Newest first, each with its actor (and token and address), its target and the change, secrets redacted. `applicationId` keeps one application\u2019s; a token restricted to some applications must name one of them.',
    query: accountAuditQuerySchema,
    responses: { 200: paged(auditEntryListSchema, 'Audit entries, newest first.') },
    errors: [404],
    management: { scope: 'activity:read', sameAs: 'GET /api/activity-logs' },
    handle: async ({ query, request, reply }): Promise<AuditEntry[]> => {
      const ctx = request.management!;
      assertActivityReachable(ctx, query.applicationId);
      const page = await listAccountAuditEntries({ ctx, input: query });
      setPagingHeaders(reply, query, page);
      return page.rows.map(toAuditEntryResponse);
    },
  }),
];

/**
 * The blacklist and webhooks: registered where a token that does not reach every application
 * is refused first (an entry or a webhook may span every application).
 */
const accountWideRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/blacklist',
    caller: 'manage',
    tag: 'Management API',
    summary: 'List blacklist entries (paged; ?search, ?type, ?isActive)',
    description: accountWide,
    query: blacklistListQuerySchema,
    responses: { 200: paged(blacklistEntryListSchema, 'Entries, newest first.') },
    management: { scope: 'blacklist:read', sameAs: 'GET /api/blacklist' },
    handle: async ({ query, request, reply }): Promise<BlacklistEntry[]> => {
      const page = await listBlacklistEntries({ ctx: request.management!, input: query });
      setPagingHeaders(reply, query, page);
      return page.rows;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/blacklist',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Add a blacklist entry',
    description: `${accountWide}${idempotent}`,
    body: createBlacklistEntryRequestSchema,
    responses: { 201: ok(blacklistEntrySchema, 'Created.') },
    errors: [404],
    management: { scope: 'blacklist:write', sameAs: 'POST /api/blacklist' },
    handle: ({ body, request, reply }) =>
      answerManagementWrite(request, reply, async () => ({
        status: 201,
        body: (await createBlacklistEntry({
          ctx: request.management!,
          input: body,
        })) satisfies BlacklistEntry,
      })),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/manage/v1/blacklist/:entryId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Remove a blacklist entry',
    description: accountWide,
    params: blacklistEntryParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    management: { scope: 'blacklist:write', sameAs: 'DELETE /api/blacklist/:entryId' },
    handle: ({ params, request, reply }) =>
      answerManagementWrite(request, reply, async () => {
        await deleteBlacklistEntry({
          ctx: request.management!,
          input: { entryId: params.entryId },
        });
        return {
          status: 200,
          body: { success: true, message: 'Blacklist entry deleted successfully' },
        };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/webhooks',
    caller: 'manage',
    tag: 'Management API',
    summary: 'List webhooks (secrets masked)',
    description: accountWide,
    responses: { 200: ok(webhookListSchema) },
    management: { scope: 'webhooks:read', sameAs: 'GET /api/webhooks' },
    handle: async ({ request }): Promise<Webhook[]> => listWebhooks({ ctx: request.management! }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/webhooks',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Create a webhook (the answer carries its signing secret, once)',
    description: `${accountWide}${idempotent}`,
    body: createWebhookRequestSchema,
    responses: { 201: ok(webhookSchema, 'Created.') },
    errors: [404],
    management: { scope: 'webhooks:write', sameAs: 'POST /api/webhooks' },
    handle: ({ body, request, reply }, { destinationPolicy }) => {
      const ctx = { ...request.management!, destinationPolicy };
      return answerManagementWrite(request, reply, async () => ({
        status: 201,
        body: (await createWebhook({ ctx, input: body })) satisfies Webhook,
      }));
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/manage/v1/webhooks/:id',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Update a webhook',
    description: accountWide,
    params: webhookParamsSchema,
    body: updateWebhookRequestSchema,
    responses: { 200: ok(webhookSchema) },
    management: { scope: 'webhooks:write', sameAs: 'PUT /api/webhooks/:id' },
    handle: ({ params, body, request, reply }, { destinationPolicy }) => {
      const ctx = { ...request.management!, destinationPolicy };
      return answerManagementWrite(request, reply, async () => ({
        status: 200,
        body: (await updateWebhook({
          ctx,
          input: { webhookId: params.id, changes: body },
        })) satisfies Webhook,
      }));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/manage/v1/webhooks/:id',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Delete a webhook',
    description: accountWide,
    params: webhookParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    management: { scope: 'webhooks:write', sameAs: 'DELETE /api/webhooks/:id' },
    handle: ({ params, request, reply }) =>
      answerManagementWrite(request, reply, async () => {
        await deleteWebhook({ ctx: request.management!, input: { webhookId: params.id } });
        return { status: 200, body: { success: true, message: 'Webhook deleted successfully' } };
      }),
  }),
];

/**
 * The account's blacklist, activity log, audit trail and webhooks through the management API,
 * with the console's verbs and filters. The blacklist and webhooks need a token
 * that reaches every application; the activity log and the audit trail of a restricted token
 * are one application at a time.
 */
export const managementAccountRoutes = [...activityRoutes, ...accountWideRoutes];

export function registerManagementAccountRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'>,
): void {
  const services = { destinationPolicy: destinationPolicyFor(deps.config) };
  registerRoutes(app, activityRoutes, services);
  registerAccountWideRoutes(app, accountWideRoutes, services);
}
