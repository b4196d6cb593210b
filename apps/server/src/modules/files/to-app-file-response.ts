import type { AppFile as AppFileResponse } from '@latchkey/contracts';
import type { AppFile } from '../../db/schema/index.ts';

/** The owner-API view of a complete file. */
export function toAppFileResponse(file: AppFile): AppFileResponse {
  return {
    id: file.id,
    name: file.name,
    version: file.version,
    platform: file.platform,
    size: file.sizeBytes,
    sha256: file.sha256 ?? '',
    requiresSession: file.requiresSession,
    downloadCount: file.downloadCount,
    createdAt: file.createdAt.toISOString(),
  };
}
