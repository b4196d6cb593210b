import { and, desc, eq, lte } from 'drizzle-orm';
import type { ClientUpdate } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appFiles } from '../../db/schema/index.ts';
import { isPastUpdatesWindow } from '../subscriptions/index.ts';
import type { ClientApplication } from './client-app-cache.ts';

/** What a login's version check concludes. */
export type VersionJudgement =
  | { kind: 'accepted' }
  /** Not the version this user should run; `update` is the one they should, if known. */
  | { kind: 'mismatch'; update: ClientUpdate | null }
  /** The current version, published after this user's updates window ended. */
  | { kind: 'updates-expired'; update: ClientUpdate };

/**
 * The forced-version check with updates windows. An application names one current version;
 * a holder whose window ended before the current release was published is held instead to
 * the newest release published within their window, so moving the application to a new
 * version never locks out a customer who is not entitled to it, nor hands it to them. Without
 * a current release (no publication date) or without a release within the window there is
 * nothing to hold them to, and the plain check applies. Only that case reads the database: one
 * indexed lookup of the application's files by upload time.
 */
export async function judgeClientVersion(
  db: Database,
  application: Pick<ClientApplication, 'id' | 'version' | 'update' | 'releasedAt'>,
  version: string | null,
  updatesUntil: Date | null,
): Promise<VersionJudgement> {
  const plain = (): VersionJudgement =>
    version === application.version
      ? { kind: 'accepted' }
      : { kind: 'mismatch', update: application.update };
  if (
    updatesUntil === null ||
    application.releasedAt === null ||
    !isPastUpdatesWindow(updatesUntil, application.releasedAt)
  ) {
    return plain();
  }
  const entitled = await newestReleaseWithin(db, application.id, updatesUntil);
  if (!entitled) return plain();
  if (version === entitled.version) return { kind: 'accepted' };
  if (version === application.version) return { kind: 'updates-expired', update: entitled };
  return { kind: 'mismatch', update: entitled };
}

/**
 * The application's newest release uploaded by `until`, as an update offer: a complete file
 * anyone may download, as a current release must be (a program on an older version cannot
 * sign in to fetch one that needs a session).
 */
export async function newestReleaseWithin(
  db: Database,
  applicationId: number,
  until: Date,
): Promise<ClientUpdate | null> {
  const [file] = await db
    .select({
      id: appFiles.id,
      version: appFiles.version,
      sizeBytes: appFiles.sizeBytes,
      sha256: appFiles.sha256,
    })
    .from(appFiles)
    .where(
      and(
        eq(appFiles.applicationId, applicationId),
        eq(appFiles.isComplete, true),
        eq(appFiles.requiresSession, false),
        lte(appFiles.createdAt, until),
      ),
    )
    .orderBy(desc(appFiles.createdAt))
    .limit(1);
  if (!file?.sha256) return null;
  return { version: file.version, file_id: file.id, size: file.sizeBytes, sha256: file.sha256 };
}
