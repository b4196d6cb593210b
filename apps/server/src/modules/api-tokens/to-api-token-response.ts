import type { ApiToken } from '@latchkey/contracts';
import type { ApiTokenRow } from '../../db/schema/index.ts';

/** A token as the owner API answers it: everything but its digest and counters. */
export function toApiTokenResponse(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    applicationIds: row.applicationIds,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    allowedIps: row.allowedIps,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
  };
}
