/**
 * What the admin module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { listAccountAuditEntries } from './list-account-audit-entries.ts';
export { lockOwnerRoles } from './lock-owner-roles.ts';
export { recordBulkActionAuditEntry } from './record-audit-entry.ts';
export { toAuditEntryResponse } from './to-audit-entry-response.ts';
export { adminRoutes } from './routes.ts';
