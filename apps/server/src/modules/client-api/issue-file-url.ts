import { and, eq, sql } from 'drizzle-orm';
import {
  DOWNLOAD_URL_TTL_SECONDS,
  type ClientFileInput,
  type ClientFileResponse,
} from '@latchkey/contracts';
import { appFiles } from '../../db/schema/index.ts';
import { createDownloadToken } from '../files/index.ts';
import type { ClientContext } from './client-context.ts';
import { isPastUpdatesWindow, updatesUntilOf } from '../subscriptions/index.ts';
import { appDisabled, clientMessages, refusal, UUID_PATTERN } from './client-outcomes.ts';
import { loadLiveSession } from './live-session.ts';

export const FILE_URL_MESSAGES = {
  issued: 'Download ready',
  notFound: 'No such file for this application',
} as const;

/**
 * POST /api/v1/file: a short-lived URL for one of the application's files, for the
 * holder of a live session unless the file needs none. The URL carries its own proof
 * (download-token.ts), so the download needs no API key and no lookup of it beyond the file's
 * row and, for a session's URL, its user's standing (joined to that row); the size and
 * SHA-256 travel in this signed answer, so a client can refuse bytes a proxy changed. An
 * unknown file, another application's and an upload in progress answer alike. A file published
 * after the holder's updates window ended is refused (UPDATES_EXPIRED). Each URL issued
 * counts as one download: a download manager resuming with Range fetches one URL many times.
 */
export async function issueFileUrl({
  ctx,
  input,
}: {
  ctx: ClientContext & { serverSecret: string; downloadOrigin: string };
  input: ClientFileInput;
}): Promise<ClientFileResponse> {
  const { application } = ctx;
  if (!application.isActive) return appDisabled();
  const notFound = () => refusal('FILE_NOT_FOUND', FILE_URL_MESSAGES.notFound);
  if (!UUID_PATTERN.test(input.file_id)) return notFound();
  const fileId = input.file_id.toLowerCase();
  const ofThisApplication = and(
    eq(appFiles.id, fileId),
    eq(appFiles.applicationId, application.id),
    eq(appFiles.isComplete, true),
  );
  const [file] = await ctx.db
    .select({ requiresSession: appFiles.requiresSession, publishedAt: appFiles.createdAt })
    .from(appFiles)
    .where(ofThisApplication);
  if (!file) return notFound();
  // The URL of a file that needs a session is bound to the session's user, so using it checks
  // their standing again (download-token.ts).
  let holderId: string | null = null;
  if (file.requiresSession) {
    const live = await loadLiveSession(ctx, input.session_token);
    if (live.refused) return live.refused;
    holderId = live.session.userId;
    // A release published after the holder's updates window is not theirs to fetch.
    if (isPastUpdatesWindow(updatesUntilOf(live.session.held, ctx.clock.now()), file.publishedAt)) {
      return refusal('UPDATES_EXPIRED', clientMessages.updatesExpired);
    }
  }
  const [counted] = await ctx.db
    .update(appFiles)
    .set({ downloadCount: sql`${appFiles.downloadCount} + 1` })
    .where(ofThisApplication)
    .returning({ sizeBytes: appFiles.sizeBytes, sha256: appFiles.sha256 });
  // Deleted between the two statements.
  if (!counted?.sha256) return notFound();
  const now = ctx.clock.now();
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + DOWNLOAD_URL_TTL_SECONDS) * 1000);
  const token = createDownloadToken({
    fileId,
    expiresAt,
    serverSecret: ctx.serverSecret,
    userId: holderId,
  });
  return {
    success: true,
    message: FILE_URL_MESSAGES.issued,
    code: 'OK',
    url: `${ctx.downloadOrigin}/api/v1/downloads/${token}`,
    size: counted.sizeBytes,
    sha256: counted.sha256,
    expires_at: expiresAt.toISOString(),
  };
}
