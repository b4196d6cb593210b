import { and, desc, eq } from 'drizzle-orm';
import type { AppFile as AppFileResponse } from '@latchkey/contracts';
import { appFiles } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { toAppFileResponse } from './to-app-file-response.ts';

/**
 * An application's complete files, newest first. An upload in progress is not listed: it has
 * no size or SHA-256 yet, and may never have them. Files are few per application (releases),
 * so there is no paging.
 */
export async function listAppFiles({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number };
}): Promise<AppFileResponse[]> {
  const application = await loadOwnedApplication({ ctx, input });
  const files = await ctx.db
    .select()
    .from(appFiles)
    .where(and(eq(appFiles.applicationId, application.id), eq(appFiles.isComplete, true)))
    .orderBy(desc(appFiles.createdAt), desc(appFiles.id));
  return files.map(toAppFileResponse);
}
