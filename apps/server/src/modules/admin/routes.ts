import type { FastifyInstance } from 'fastify';
import {
  adminUserListQuerySchema,
  adminUserParamsSchema,
  auditedAccountStateSchema,
  auditedApiTokenSchema,
  auditedManagementWriteSchema,
  auditedBulkActionSchema,
  auditListQuerySchema,
  siteOverviewQuerySchema,
  updateAdminUserRequestSchema,
  type AdminUser,
  type AuditEntry,
  type DeletedResponse,
  type SiteOverviewRow,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../app.ts';
import type { AuditEntry as AuditEntryRow } from '../../db/schema/index.ts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { deleteSiteAccount } from './delete-site-account.ts';
import { getSiteOverview } from './get-site-overview.ts';
import { listAuditEntries } from './list-audit-entries.ts';
import { listSiteAccounts } from './list-site-accounts.ts';
import { toAdminUserResponse } from './to-admin-user-response.ts';
import { updateSiteAccount } from './update-site-account.ts';

/**
 * Site administration (spec doc 2 §7, issue 14). Registered inside the owner-guarded scope;
 * what each route requires is in owner-route-permissions.ts, the finer rules in the verbs.
 */
export function registerAdminRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'applicationEvents'>,
): void {
  app.get('/api/admin/users', async (request, reply): Promise<AdminUser[]> => {
    const query = parseInput(adminUserListQuerySchema, request.query);
    const page = await listSiteAccounts({ ctx: request.owner!, input: query });
    setPagingHeaders(reply, query, page);
    return page.rows.map(toAdminUserResponse);
  });

  app.patch('/api/admin/users/:id', async (request): Promise<AdminUser> => {
    const { id } = parseInput(adminUserParamsSchema, request.params);
    const changes = parseInput(updateAdminUserRequestSchema, request.body);
    const updated = await updateSiteAccount({
      ctx: request.owner!,
      input: { accountId: id, changes },
    });
    return toAdminUserResponse(updated);
  });

  app.delete('/api/admin/users/:id', async (request): Promise<DeletedResponse> => {
    const { id } = parseInput(adminUserParamsSchema, request.params);
    await deleteSiteAccount({
      ctx: { ...request.owner!, applicationEvents: deps.applicationEvents },
      input: { accountId: id },
    });
    return { success: true, message: 'User has been removed from the system.' };
  });

  app.get('/api/admin/audit', async (request, reply): Promise<AuditEntry[]> => {
    const query = parseInput(auditListQuerySchema, request.query);
    const page = await listAuditEntries({ ctx: request.owner!, input: query });
    setPagingHeaders(reply, query, page);
    return page.rows.map((entry) => ({
      id: entry.id,
      actor: { id: entry.actorAccountId, email: entry.actorEmail },
      action: entry.action,
      target: { id: entry.targetAccountId, email: entry.targetEmail },
      ...auditedChangeOf(entry),
      ...(entry.actorTokenId
        ? {
            actorToken: {
              id: entry.actorTokenId,
              name: entry.actorTokenName ?? '',
              prefix: entry.actorTokenPrefix ?? '',
            },
            ipAddress: entry.ipAddress,
          }
        : {}),
      createdAt: entry.createdAt.toISOString(),
    }));
  });

  app.get('/api/admin/overview', async (request, reply): Promise<SiteOverviewRow[]> => {
    const query = parseInput(siteOverviewQuerySchema, request.query);
    const page = await getSiteOverview({ ctx: request.owner!, input: query });
    setPagingHeaders(reply, query, page);
    return page.rows.map((row) => ({
      accountId: row.account.id,
      email: row.account.email,
      firstName: row.account.firstName,
      lastName: row.account.lastName,
      role: row.account.role,
      isActive: row.account.isActive,
      applicationCount: row.applicationCount,
      endUserCount: row.endUserCount,
      apiRequestCount: row.apiRequestCount,
      lastActivityAt: row.lastActivityAt?.toISOString() ?? null,
    }));
  });
}

/** An entry's change, in the shape its action records it. */
function auditedChangeOf(
  entry: AuditEntryRow,
): Pick<AuditEntry, 'before' | 'after' | 'bulkAction' | 'apiToken' | 'managementWrite'> {
  switch (entry.action) {
    case 'end_users_bulk_action':
      return { before: null, after: null, bulkAction: auditedBulkActionSchema.parse(entry.after) };
    case 'management_write':
      return {
        before: null,
        after: null,
        managementWrite: auditedManagementWriteSchema.parse(entry.after),
      };
    case 'api_token_created':
    case 'api_token_revoked':
      return { before: null, after: null, apiToken: auditedApiTokenSchema.parse(entry.after) };
    default:
      return {
        before: entry.before ? auditedAccountStateSchema.parse(entry.before) : null,
        after: entry.after ? auditedAccountStateSchema.parse(entry.after) : null,
      };
  }
}
