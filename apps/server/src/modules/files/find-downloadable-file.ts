import { and, eq, sql } from 'drizzle-orm';
import { appFiles, appUsers, applications } from '../../db/schema/index.ts';
import type { Context } from '../../http/request-context.ts';
import { isInGoodStanding } from '../app-users/index.ts';
import {
  heldSubscriptionsJson,
  isPastUpdatesWindow,
  licensedUntilMs,
  parseHeldSubscriptions,
  updatesUntilOf,
} from '../subscriptions/index.ts';

export interface DownloadableFile {
  id: string;
  name: string;
  sizeBytes: number;
  sha256: string;
  chunkSizeBytes: number;
}

/** What a valid download token may have: the file, or why not. */
export type FoundDownload =
  | { kind: 'file'; file: DownloadableFile }
  /** Deleted (or never completed) since the URL was issued. */
  | { kind: 'missing' }
  /** A token bound to no user for a file that needs a session (it needed none when issued). */
  | { kind: 'needs-holder' }
  /** The user it was issued to is paused, inactive, expired, deleted or without a licence. */
  | { kind: 'holder-refused' }
  /** The file was published after the updates window of the user it was issued to. */
  | { kind: 'updates-expired' };

/**
 * The complete file a valid download token names. The token already proved who may have it, so
 * no application or session is looked up; a token issued to a live session's holder (a file
 * that needs a session) is good only while that user is in good standing, as the live-session
 * rule would judge them now: checked at every use, in the same statement that finds the file
 * (primary-key lookups of the user and application), never cached, so a pause stops the URL on
 * every instance at once.
 */
export async function findDownloadableFile({
  ctx,
  input,
}: {
  ctx: Context;
  input: { fileId: string; userId: string | null };
}): Promise<FoundDownload> {
  const complete = and(eq(appFiles.id, input.fileId), eq(appFiles.isComplete, true));
  const fileColumns = {
    id: appFiles.id,
    name: appFiles.name,
    sizeBytes: appFiles.sizeBytes,
    sha256: appFiles.sha256,
    chunkSizeBytes: appFiles.chunkSizeBytes,
    requiresSession: appFiles.requiresSession,
    publishedAt: appFiles.createdAt,
  };
  if (input.userId === null) {
    const [file] = await ctx.db.select(fileColumns).from(appFiles).where(complete);
    if (!file?.sha256) return { kind: 'missing' };
    if (file.requiresSession) return { kind: 'needs-holder' };
    return { kind: 'file', file: { ...file, sha256: file.sha256 } };
  }
  const [row] = await ctx.db
    .select({
      ...fileColumns,
      holderId: appUsers.id,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      isLicenseRequired: applications.isLicenseRequired,
      held: heldSubscriptionsJson(appUsers.id),
    })
    .from(appFiles)
    .innerJoin(applications, eq(applications.id, appFiles.applicationId))
    .leftJoin(
      appUsers,
      and(
        eq(appUsers.id, sql`${input.userId}::uuid`),
        eq(appUsers.applicationId, appFiles.applicationId),
      ),
    )
    .where(complete);
  if (!row?.sha256) return { kind: 'missing' };
  if (row.holderId === null || row.isActive === null || row.isPaused === null) {
    return { kind: 'holder-refused' };
  }
  const now = ctx.clock.now();
  const holder = { isActive: row.isActive, isPaused: row.isPaused, expiresAt: row.expiresAt };
  const held = parseHeldSubscriptions(row.held);
  const until = licensedUntilMs(held);
  const isLicensed = !row.isLicenseRequired || (until !== null && until > now.getTime());
  if (!isInGoodStanding(holder, now) || !isLicensed) return { kind: 'holder-refused' };
  if (isPastUpdatesWindow(updatesUntilOf(held, now), row.publishedAt)) {
    return { kind: 'updates-expired' };
  }
  const { id, name, sizeBytes, chunkSizeBytes } = row;
  return { kind: 'file', file: { id, name, sizeBytes, sha256: row.sha256, chunkSizeBytes } };
}
