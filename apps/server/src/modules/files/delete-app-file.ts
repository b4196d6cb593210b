import { and, eq } from 'drizzle-orm';
import { APP_FILE_NOT_FOUND } from '@latchkey/contracts';
import { appFiles } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import type { FileContext } from './file-context.ts';

/**
 * Deletes one of an application's files with its bytes. When it was the current release the
 * foreign key clears `current_release_file_id`, and every instance's cached application (which
 * carries the release for VERSION_MISMATCH answers) is dropped before the answer.
 */
export async function deleteAppFile({
  ctx,
  input,
}: {
  ctx: FileContext;
  input: { applicationId: number; fileId: string };
}): Promise<void> {
  const application = await loadOwnedApplication({ ctx, input });
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(appFiles)
      .where(
        and(
          eq(appFiles.id, input.fileId),
          eq(appFiles.applicationId, application.id),
          eq(appFiles.isComplete, true),
        ),
      )
      .returning({ id: appFiles.id, name: appFiles.name, version: appFiles.version });
    if (row) {
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'file_deleted',
          application: { id: application.id, name: application.name },
          target: { kind: 'file', id: row.id, label: row.name },
          change: { version: row.version },
        },
      });
    }
    return row;
  });
  if (!deleted) throw notFound(APP_FILE_NOT_FOUND);
  // The rows went with the record (cascade); another storage would need telling.
  await ctx.storage.delete(deleted.id);
  ctx.log.info({ fileId: deleted.id, applicationId: application.id }, 'file deleted');
  if (application.currentReleaseFileId === deleted.id) {
    await ctx.applicationEvents.emitChange(
      { kind: 'updated', applicationId: application.id, apiKey: application.apiKey },
      ctx.log,
    );
  }
}
