import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  accountAuditQuerySchema,
  activityLogsQuerySchema,
  blacklistEntryParamsSchema,
  blacklistListQuerySchema,
  createBlacklistEntryRequestSchema,
  createWebhookRequestSchema,
  updateWebhookRequestSchema,
  webhookParamsSchema,
  type ActivityLog,
  type AuditEntry,
  type BlacklistEntry,
  type Webhook,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
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
import { answerManagementWrite } from './management-write.ts';
import { assertAccountWide, assertActivityReachable } from './reachable-applications.ts';

/**
 * The account's blacklist, activity log, audit trail and webhooks through the management API,
 * with the console's verbs and filters. The blacklist and webhooks need a token
 * that reaches every application; the activity log and the audit trail of a restricted token
 * are one application at a time.
 */
export function registerManagementAccountRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'>,
): void {
  const destinationPolicy = destinationPolicyFor(deps.config);
  const accountWide = (request: FastifyRequest) => {
    const ctx = request.management!;
    assertAccountWide(ctx);
    return ctx;
  };
  const webhookCtx = (request: FastifyRequest) => ({ ...accountWide(request), destinationPolicy });

  app.get('/activity', async (request, reply): Promise<ActivityLog[]> => {
    const ctx = request.management!;
    const query = parseInput(activityLogsQuerySchema, request.query);
    assertActivityReachable(ctx, query.applicationId);
    const page = await listActivityLogs({ ctx, input: query });
    setPagingHeaders(reply, query, page);
    return page.rows;
  });

  app.get('/audit', async (request, reply): Promise<AuditEntry[]> => {
    const ctx = request.management!;
    const query = parseInput(accountAuditQuerySchema, request.query);
    assertActivityReachable(ctx, query.applicationId);
    const page = await listAccountAuditEntries({ ctx, input: query });
    setPagingHeaders(reply, query, page);
    return page.rows.map(toAuditEntryResponse);
  });

  app.get('/blacklist', async (request, reply): Promise<BlacklistEntry[]> => {
    const ctx = accountWide(request);
    const query = parseInput(blacklistListQuerySchema, request.query);
    const page = await listBlacklistEntries({ ctx, input: query });
    setPagingHeaders(reply, query, page);
    return page.rows;
  });

  app.post('/blacklist', async (request, reply) => {
    const ctx = accountWide(request);
    const input = parseInput(createBlacklistEntryRequestSchema, request.body);
    return answerManagementWrite(request, reply, async () => ({
      status: 201,
      body: (await createBlacklistEntry({ ctx, input })) satisfies BlacklistEntry,
    }));
  });

  app.delete('/blacklist/:entryId', async (request, reply) => {
    const ctx = accountWide(request);
    const { entryId } = parseInput(blacklistEntryParamsSchema, request.params);
    return answerManagementWrite(request, reply, async () => {
      await deleteBlacklistEntry({ ctx, input: { entryId } });
      return {
        status: 200,
        body: { success: true, message: 'Blacklist entry deleted successfully' },
      };
    });
  });

  app.get('/webhooks', async (request): Promise<Webhook[]> => {
    return listWebhooks({ ctx: accountWide(request) });
  });

  app.post('/webhooks', async (request, reply) => {
    const ctx = webhookCtx(request);
    const input = parseInput(createWebhookRequestSchema, request.body);
    return answerManagementWrite(request, reply, async () => ({
      status: 201,
      body: (await createWebhook({ ctx, input })) satisfies Webhook,
    }));
  });

  app.put('/webhooks/:id', async (request, reply) => {
    const ctx = webhookCtx(request);
    const { id } = parseInput(webhookParamsSchema, request.params);
    const changes = parseInput(updateWebhookRequestSchema, request.body);
    return answerManagementWrite(request, reply, async () => ({
      status: 200,
      body: (await updateWebhook({ ctx, input: { webhookId: id, changes } })) satisfies Webhook,
    }));
  });

  app.delete('/webhooks/:id', async (request, reply) => {
    const ctx = accountWide(request);
    const { id } = parseInput(webhookParamsSchema, request.params);
    return answerManagementWrite(request, reply, async () => {
      await deleteWebhook({ ctx, input: { webhookId: id } });
      return { status: 200, body: { success: true, message: 'Webhook deleted successfully' } };
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const managementAccountRoutes: readonly RouteDefinition[] = [];
