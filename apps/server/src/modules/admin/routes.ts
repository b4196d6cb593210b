import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  adminUserListQuerySchema,
  adminUserParamsSchema,
  auditListQuerySchema,
  siteOverviewQuerySchema,
  updateAdminUserRequestSchema,
  type AdminUser,
  type AuditEntry,
  type DeletedResponse,
  type SiteOverviewRow,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { deleteSiteAccount } from './delete-site-account.ts';
import { getSiteOverview } from './get-site-overview.ts';
import { listAuditEntries } from './list-audit-entries.ts';
import { listSiteAccounts } from './list-site-accounts.ts';
import { toAuditEntryResponse } from './to-audit-entry-response.ts';
import { toAdminUserResponse } from './to-admin-user-response.ts';
import { updateSiteAccount } from './update-site-account.ts';

/**
 * Site administration. Registered inside the owner-guarded scope;
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
    return page.rows.map(toAuditEntryResponse);
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

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const adminRoutes: readonly RouteDefinition[] = [];
