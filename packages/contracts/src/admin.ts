import { z } from 'zod';
import { bulkAppUserActions } from './bulk-app-users.ts';
import { pageQueryFields } from './paging.ts';
import { permissionSchema, roleSchema } from './roles.ts';
import { apiTokenScopeSchema } from './api-tokens.ts';
import { applicationIdSchema } from './applications.ts';

/** An account of the site as an administrator sees it on /user-management. */
export const adminUserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    role: roleSchema,
    permissions: z.array(permissionSchema),
    isActive: z.boolean(),
    createdAt: z.iso.datetime(),
    lastSignInAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'AdminUser', description: 'An account of the site as an administrator sees it.' });
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = z.array(adminUserSchema);

/** GET /api/admin/users?page=&pageSize=&search= (search: e-mail, first or last name). */
export const adminUserListQuerySchema = z.object(pageQueryFields);

export const adminUserParamsSchema = z.object({ id: z.uuid('Invalid user id') });

/** PATCH /api/admin/users/:id: role, permissions and the active flag, saved as one update. */
export const updateAdminUserRequestSchema = z.object({
  role: roleSchema,
  permissions: z
    .array(permissionSchema)
    .max(permissionSchema.options.length * 2, 'Too many permissions')
    .transform((permissions) => [...new Set(permissions)]),
  isActive: z.boolean('isActive must be true or false'),
});
export type UpdateAdminUserRequest = z.input<typeof updateAdminUserRequestSchema>;

/** The refusals the console shows word for word. */
export const adminMessages = {
  cannotDeleteSelf: 'You cannot delete your own account.',
  cannotDeleteOwner: 'The site owner cannot be deleted.',
  cannotDeactivateSelf: 'You cannot deactivate your own account.',
  onlyOwnerEditsOwner: 'Only a site owner can change an owner.',
  lastOwner: 'The last active site owner cannot be demoted or deactivated.',
  userNotFound: 'User not found',
} as const;

/**
 * An owner's single write in their own environment, each recorded in the transaction that
 * makes it, with what it touched and what it changed (auditedOwnerWriteSchema).
 */
export const ownerWriteActions = [
  'application_created',
  'application_updated',
  'application_deleted',
  'end_user_created',
  'end_user_updated',
  'end_user_paused',
  'end_user_unpaused',
  'end_user_hwid_reset',
  'end_user_devices_released',
  'seat_freed',
  'end_user_password_reset_sent',
  'end_user_email_verified',
  'end_user_deleted',
  'subscription_granted',
  'subscription_updated',
  'subscription_removed',
  'plan_created',
  'plan_updated',
  'plan_deleted',
  'license_keys_generated',
  'license_key_banned',
  'license_key_emailed',
  'license_key_unbanned',
  'license_key_deleted',
  'unused_license_keys_deleted',
  'webhook_created',
  'webhook_updated',
  'webhook_deleted',
  'blacklist_entry_created',
  'blacklist_entry_deleted',
  'variable_created',
  'variable_updated',
  'variable_deleted',
  'user_variable_set',
  'user_variable_deleted',
  'file_uploaded',
  'file_deleted',
  'import_previewed',
  'import_started',
  'webhook_delivery_retried',
  'sample_saved',
  'sample_reset',
  'code_file_saved',
  'code_file_restored',
  'mail_resent',
  'mail_template_saved',
  'mail_template_reset',
  'shop_connection_created',
  'shop_connection_updated',
  'shop_connection_deleted',
  'shop_order_processed',
] as const;
export type OwnerWriteAction = (typeof ownerWriteActions)[number];

export const auditActionSchema = z.enum([
  'user_updated',
  'user_deleted',
  'end_users_bulk_action',
  'api_token_created',
  'api_token_revoked',
  'management_write',
  ...ownerWriteActions,
]);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const isOwnerWriteAction = (action: AuditAction): action is OwnerWriteAction =>
  (ownerWriteActions as readonly string[]).includes(action);

/** What an owner write touched. */
export const auditTargetKinds = [
  'application',
  'end_user',
  'plan',
  'license_key',
  'webhook',
  'blacklist_entry',
  'variable',
  'file',
  'import',
  'webhook_delivery',
  'sample',
  'code_file',
  'mail_message',
  'mail_template',
  'shop_connection',
  'shop_order',
] as const;
export const auditTargetKindSchema = z.enum(auditTargetKinds);
export type AuditTargetKind = z.infer<typeof auditTargetKindSchema>;

/** The value that stands for a secret (a password, a webhook secret) in a recorded change. */
export const AUDIT_REDACTED = '[redacted]';

/**
 * One owner write (the target account of its entry is the owner's own): the application it
 * was in, as then named; what it touched, with a label a person recognises (an end user's
 * username, a plan's name, a key as the list masks it, a webhook's origin); and the change,
 * the request's fields with every secret replaced by "[redacted]", however deeply nested.
 */
export const auditedOwnerWriteSchema = z.object({
  application: z.object({ id: z.number().int(), name: z.string().nullable() }).nullable(),
  target: z.object({
    kind: auditTargetKindSchema,
    id: z.string(),
    label: z.string().nullable(),
  }),
  change: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditedOwnerWrite = z.infer<typeof auditedOwnerWriteSchema>;

/** An account's administrable state, as recorded before and after a change. */
export const auditedAccountStateSchema = z.object({
  role: roleSchema,
  permissions: z.array(permissionSchema),
  isActive: z.boolean(),
});

/**
 * One batch of an owner's bulk action on their end users; the target is the owner's own
 * account. Counts and ids only: site administrators read the trail, and an owner's end users
 * (their names, e-mails) are not theirs to see.
 */
export const auditedBulkActionSchema = z.object({
  operationId: z.uuid(),
  applicationId: z.number().int(),
  action: z.enum(bulkAppUserActions),
  userCount: z.number().int().nonnegative(),
});
export type AuditedBulkAction = z.infer<typeof auditedBulkActionSchema>;

/**
 * A management API token created or revoked; the target is its owner's account. Never its
 * text: the prefix is what the API Tokens page shows.
 */
export const auditedApiTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(apiTokenScopeSchema),
  applicationIds: z.array(z.number().int()).nullable(),
});
export type AuditedApiToken = z.infer<typeof auditedApiTokenSchema>;

/**
 * A write through the management API: which operation, on what, with which request fields
 * (secrets such as passwords are replaced by "[redacted]"), and how it was answered.
 */
export const auditedManagementWriteSchema = z.object({
  operation: z.string(),
  summary: z.string(),
  path: z.string(),
  status: z.number().int(),
  changes: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditedManagementWrite = z.infer<typeof auditedManagementWriteSchema>;

/** The token a management API write came with, as it was named at the time. */
export const auditedTokenActorSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
});

/** One entry of the audit trail: who did what to whom, before and after, when. */
export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    actor: z.object({ id: z.uuid(), email: z.string() }),
    action: auditActionSchema,
    target: z.object({ id: z.uuid(), email: z.string() }),
    before: auditedAccountStateSchema.nullable(),
    after: auditedAccountStateSchema.nullable(),
    /** Set for end_users_bulk_action (before and after are then null). */
    bulkAction: auditedBulkActionSchema.optional(),
    /** Set for api_token_created and api_token_revoked (before and after are then null). */
    apiToken: auditedApiTokenSchema.optional(),
    /** Set for management_write (before and after are then null). */
    managementWrite: auditedManagementWriteSchema.optional(),
    /** Set for an owner write (ownerWriteActions; before and after are then null). */
    ownerWrite: auditedOwnerWriteSchema.optional(),
    /** Set when a management API token acted (on the creator's behalf). */
    actorToken: auditedTokenActorSchema.optional(),
    /** The address the change came from, where it was recorded. */
    ipAddress: z.string().nullable().optional(),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'AuditEntry',
    description: 'One entry of the audit trail: who did what to whom, before and after, when.',
  });
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditEntryListSchema = z.array(auditEntrySchema);

/**
 * GET /api/admin/audit?page=&pageSize=&search= (newest first; search: the e-mail of the
 * account that acted or of the account acted on, case-insensitive).
 */
export const auditListQuerySchema = z.object({
  page: pageQueryFields.page,
  pageSize: pageQueryFields.pageSize,
  search: pageQueryFields.search,
});

/**
 * GET /api/manage/v1/audit?applicationId=&page=&pageSize=: the changes the token's creator
 * made (in the console and through the API), newest first; one application's with
 * `applicationId`.
 */
export const accountAuditQuerySchema = z.object({
  applicationId: z.preprocess(
    (value) => (value === '' ? undefined : value),
    applicationIdSchema.optional(),
  ),
  page: pageQueryFields.page,
  pageSize: pageQueryFields.pageSize,
});
export type AccountAuditQuery = z.output<typeof accountAuditQuerySchema>;

/**
 * GET /api/admin/overview: one row per account, counts only. Never another environment's end
 * users, keys, secrets or logs: view_all_data shows how much there is, not what.
 */
export const siteOverviewRowSchema = z
  .object({
    accountId: z.uuid(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    role: roleSchema,
    isActive: z.boolean(),
    applicationCount: z.number().int(),
    endUserCount: z.number().int(),
    apiRequestCount: z.number().int(),
    lastActivityAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'SiteOverviewRow', description: 'One account of the site, counts only.' });
export type SiteOverviewRow = z.infer<typeof siteOverviewRowSchema>;
export const siteOverviewListSchema = z.array(siteOverviewRowSchema);

export const siteOverviewQuerySchema = adminUserListQuerySchema;
