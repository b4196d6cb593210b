import type { BlacklistEntry as BlacklistEntryResponse } from '@latchkey/contracts';
import type { BlacklistEntry } from '../../db/schema/index.ts';

/** The owner-API view of an entry, with its application's name (null when global). */
export function toBlacklistEntryResponse(
  entry: BlacklistEntry,
  applicationName: string | null,
): BlacklistEntryResponse {
  return {
    id: entry.id,
    type: entry.type,
    value: entry.value,
    reason: entry.reason,
    applicationId: entry.applicationId,
    application: applicationName === null ? null : { name: applicationName },
    isActive: entry.isActive,
    createdAt: entry.createdAt.toISOString(),
  };
}
