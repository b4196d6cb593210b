import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  adminUserListQuerySchema,
  adminUserParamsSchema,
  adminUserSchema,
  auditEntrySchema,
  auditListQuerySchema,
  deletedResponseSchema,
  siteOverviewQuerySchema,
  siteOverviewRowSchema,
  updateAdminUserRequestSchema,
  type AdminUser,
  type AuditEntry,
  type DeletedResponse,
  type SiteOverviewRow,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { deleteSiteAccount } from './delete-site-account.ts';
import { getSiteOverview } from './get-site-overview.ts';
import { listAuditEntries } from './list-audit-entries.ts';
import { listSiteAccounts } from './list-site-accounts.ts';
import { toAuditEntryResponse } from './to-audit-entry-response.ts';
import { toAdminUserResponse } from './to-admin-user-response.ts';
import { updateSiteAccount } from './update-site-account.ts';

const defineRoute = routeDefiner<Pick<AppDependencies, 'applicationEvents'>>();

/** Site administration: what each route requires is its permission, the finer rules in the verbs. */
export const adminRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/admin/users',
    permission: 'manage_users',
    caller: 'owner',
    tag: 'Administration',
    summary: 'List the site\u2019s accounts',
    query: adminUserListQuerySchema,
    responses: { 200: paged(z.array(adminUserSchema), 'Accounts.') },
    handle: async ({ query, request, reply }): Promise<AdminUser[]> => {
      const page = await listSiteAccounts({ ctx: request.owner!, input: query });
      setPagingHeaders(reply, query, page);
      return page.rows.map(toAdminUserResponse);
    },
  }),
  // Activation needs manage_users, roles and permissions need manage_permissions: the verb
  // checks which fields actually change.
  defineRoute({
    method: 'PATCH',
    path: '/api/admin/users/:id',
    permission: ['manage_users', 'manage_permissions'],
    caller: 'owner',
    tag: 'Administration',
    summary: 'Change an account\u2019s role, permissions or active flag',
    params: adminUserParamsSchema,
    body: updateAdminUserRequestSchema,
    responses: { 200: ok(adminUserSchema) },
    handle: async ({ params, body, request }): Promise<AdminUser> => {
      const updated = await updateSiteAccount({
        ctx: request.owner!,
        input: { accountId: params.id, changes: body },
      });
      return toAdminUserResponse(updated);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/admin/users/:id',
    permission: 'manage_users',
    caller: 'owner',
    tag: 'Administration',
    summary: 'Delete an account and everything it owns',
    params: adminUserParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }, { applicationEvents }): Promise<DeletedResponse> => {
      await deleteSiteAccount({
        ctx: { ...request.owner!, applicationEvents },
        input: { accountId: params.id },
      });
      return { success: true, message: 'User has been removed from the system.' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/audit',
    permission: 'access_admin_panel',
    caller: 'owner',
    tag: 'Administration',
    summary: 'The audit trail, newest first',
    query: auditListQuerySchema,
    responses: { 200: paged(z.array(auditEntrySchema), 'Audit entries.') },
    handle: async ({ query, request, reply }): Promise<AuditEntry[]> => {
      const page = await listAuditEntries({ ctx: request.owner!, input: query });
      setPagingHeaders(reply, query, page);
      return page.rows.map(toAuditEntryResponse);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/overview',
    permission: 'view_all_data',
    caller: 'owner',
    tag: 'Administration',
    summary: 'Every account of the site, counts only',
    query: siteOverviewQuerySchema,
    responses: { 200: paged(z.array(siteOverviewRowSchema), 'One row per account.') },
    handle: async ({ query, request, reply }): Promise<SiteOverviewRow[]> => {
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
    },
  }),
];

/** Site administration. Registered inside the owner-guarded scope. */
export function registerAdminRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'applicationEvents'>,
): void {
  registerRoutes(app, adminRoutes, deps);
}
