import { and, eq } from 'drizzle-orm';
import {
  appFileLimits,
  type AppFile as AppFileResponse,
  type UploadAppFileInput,
} from '@latchkey/contracts';
import { appFiles } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import type { FileContext } from './file-context.ts';
import { toAppFileResponse } from './to-app-file-response.ts';

export const uploadTooLarge = (maxBytes: number) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than the upload limit of ${Math.floor(maxBytes / (1024 * 1024))} MB (MAX_UPLOAD_MB)`,
  );

/**
 * Stores an uploaded file as its bytes arrive. The record is written first,
 * incomplete (invisible to lists and downloads), the bytes go to storage piece by piece, and
 * only then is the record completed with its size and SHA-256, so no transaction spans the
 * upload. Whatever stops it (the limit, an aborted request, a database error) deletes the
 * record and what was stored; a crash leaves an incomplete record the retention sweep deletes.
 */
export async function uploadAppFile({
  ctx,
  input,
}: {
  ctx: FileContext;
  input: UploadAppFileInput & {
    applicationId: number;
    body: AsyncIterable<Buffer>;
    /** The request's Content-Length, when it sent one: refused before a byte is read. */
    declaredBytes: number | null;
    maxBytes: number;
  };
}): Promise<AppFileResponse> {
  const application = await loadOwnedApplication({ ctx, input });
  if (input.declaredBytes !== null && input.declaredBytes > input.maxBytes) {
    throw uploadTooLarge(input.maxBytes);
  }
  const [created] = await ctx.db
    .insert(appFiles)
    .values({
      applicationId: application.id,
      name: input.name.slice(0, appFileLimits.name),
      version: input.version,
      platform: input.platform,
      requiresSession: input.requiresSession,
      chunkSizeBytes: ctx.storage.chunkSizeBytes,
      isComplete: false,
      createdAt: ctx.clock.now(),
    })
    .returning({ id: appFiles.id });
  if (!created) throw new Error('insert returned no row');
  const fileId = created.id;
  try {
    const stored = await ctx.storage.write({
      fileId,
      source: input.body,
      maxBytes: input.maxBytes,
      tooLarge: () => uploadTooLarge(input.maxBytes),
    });
    // Completed with its audit entry: a file exists for programs from this commit on.
    const completed = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(appFiles)
        .set({ sizeBytes: stored.sizeBytes, sha256: stored.sha256, isComplete: true })
        .where(and(eq(appFiles.id, fileId), eq(appFiles.applicationId, application.id)))
        .returning();
      if (row) {
        await recordOwnerWrite({
          ctx: { ...ctx, db: tx },
          input: {
            action: 'file_uploaded',
            application: { id: application.id, name: application.name },
            target: { kind: 'file', id: row.id, label: row.name },
            change: {
              version: row.version,
              platform: row.platform,
              requiresSession: row.requiresSession,
              sizeBytes: row.sizeBytes,
              sha256: row.sha256,
            },
          },
        });
      }
      return row;
    });
    // Gone meanwhile: the application was deleted during the upload.
    if (!completed) throw new AppError('NOT_FOUND', 'Application not found');
    ctx.log.info(
      { fileId, applicationId: application.id, sizeBytes: stored.sizeBytes },
      'file uploaded',
    );
    return toAppFileResponse(completed);
  } catch (error) {
    await discardUpload(ctx, fileId);
    throw error;
  }
}

/** Deletes what a failed upload stored, and its record (its chunks cascade). */
async function discardUpload(ctx: FileContext, fileId: string): Promise<void> {
  try {
    await ctx.storage.delete(fileId);
    await ctx.db.delete(appFiles).where(eq(appFiles.id, fileId));
  } catch (error) {
    // The retention sweep deletes incomplete uploads past an hour: this one too, then.
    ctx.log.warn({ err: error, fileId }, 'could not discard a failed upload');
  }
}
