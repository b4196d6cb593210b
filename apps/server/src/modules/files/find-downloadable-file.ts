import { and, eq } from 'drizzle-orm';
import { appFiles } from '../../db/schema/index.ts';
import type { Context } from '../../http/request-context.ts';

export interface DownloadableFile {
  id: string;
  name: string;
  sizeBytes: number;
  sha256: string;
  chunkSizeBytes: number;
}

/**
 * The complete file a valid download token names, or null (deleted since the URL was issued).
 * The token already proved who may have it: no application or session is looked up.
 */
export async function findDownloadableFile({
  ctx,
  input,
}: {
  ctx: Context;
  input: { fileId: string };
}): Promise<DownloadableFile | null> {
  const [file] = await ctx.db
    .select({
      id: appFiles.id,
      name: appFiles.name,
      sizeBytes: appFiles.sizeBytes,
      sha256: appFiles.sha256,
      chunkSizeBytes: appFiles.chunkSizeBytes,
    })
    .from(appFiles)
    .where(and(eq(appFiles.id, input.fileId), eq(appFiles.isComplete, true)));
  if (!file?.sha256) return null;
  return { ...file, sha256: file.sha256 };
}
