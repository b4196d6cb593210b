import { and, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { ImportProgress, StartImportRequest } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import {
  appUserDevices,
  appUsers,
  importRows,
  imports,
  licenseKeys,
  plans,
  subscriptions,
  type ImportRecord,
} from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import {
  licenseKeyDigest,
  licenseKeyDisplay,
  licenseKeySuffix,
  sealLicenseKey,
} from '../licenses/license-key-secrets.ts';
import type { ImportContext } from './import-context.ts';
import { unsealKeyRow, unsealUserRow } from './import-row-sealing.ts';
import type { KeyAuthKeyRow, KeyAuthUserRow } from './keyauth-export.ts';
import { loadOwnedImport } from './load-owned-import.ts';
import { KEY_WITHOUT_LEVEL, subscriptionLevel } from './preview-import.ts';
import { toImportProgress } from './to-import-progress.ts';

/** Rows per transaction: a batch is all written or none (about 12 parameters a row). */
export const IMPORT_BATCH_ROWS = 1_000;
/** A running import not advanced for this long lost its process and may be started again. */
export const IMPORT_STALE_AFTER_MS = 60_000;
/**
 * The password hash of a user KeyAuth had none for (or only a plain password, which is never
 * kept): no password verifies against it, so the owner sets one before the user can log in.
 */
export const UNUSABLE_PASSWORD_HASH = '!imported-without-password';

/**
 * Starts (or resumes) a previewed import with each KeyAuth level mapped to a plan of the
 * application, and answers its progress at once; the rows are written in the background,
 * one transaction per batch, by `run` (the caller keeps that promise). Claiming the import is
 * one conditional UPDATE, so two instances starting it at once run it once. A failed import,
 * or a running one whose process died, continues with the rows not yet done; a done import is
 * answered as it is, and writes nothing twice.
 */
export async function startImport({
  ctx,
  input,
}: {
  ctx: ImportContext;
  input: { applicationId: number; importId: string; request: StartImportRequest };
}): Promise<{ progress: ImportProgress; run: Promise<void> | null }> {
  const record = await loadOwnedImport({ ctx, input });
  if (record.status === 'done') return { progress: toImportProgress(record), run: null };
  const levelPlans = input.request.levelPlans ?? {};
  await checkLevelPlans(ctx, record, levelPlans);

  const now = ctx.clock.now();
  const [claimed] = await ctx.db
    .update(imports)
    .set({
      status: 'running',
      levelPlans,
      error: null,
      startedAt: sql`coalesce(${imports.startedAt}, ${now})`,
      finishedAt: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(imports.id, record.id),
        or(
          inArray(imports.status, ['previewed', 'failed']),
          and(
            eq(imports.status, 'running'),
            lt(imports.updatedAt, new Date(now.getTime() - IMPORT_STALE_AFTER_MS)),
          ),
        ),
      ),
    )
    .returning();
  if (!claimed) throw new AppError('CONFLICT', 'This import is already running');
  ctx.log.info({ applicationId: record.applicationId, importId: record.id }, 'import started');
  return { progress: toImportProgress(claimed), run: runImport(ctx, claimed) };
}

async function checkLevelPlans(
  ctx: ImportContext,
  record: ImportRecord,
  levelPlans: Record<string, string>,
): Promise<void> {
  const unknownLevels = Object.keys(levelPlans).filter((level) => !record.levels.includes(level));
  if (unknownLevels.length > 0) {
    throw badRequest(`levelPlans: the file has no level ${quoteList(unknownLevels)}`);
  }
  if (record.kind === 'keys') {
    // A licence key belongs to a plan, so a key's level must say which.
    const unmapped = record.levels.filter((level) => levelPlans[level] === undefined);
    if (unmapped.length > 0) {
      throw badRequest(`levelPlans: choose a plan for the level ${quoteList(unmapped)}`);
    }
  }
  const planIds = [...new Set(Object.values(levelPlans))];
  if (planIds.length === 0) return;
  const found = await ctx.db
    .select({ id: plans.id, isArchived: plans.isArchived })
    .from(plans)
    .where(and(eq(plans.applicationId, record.applicationId), inArray(plans.id, planIds)));
  if (found.length !== planIds.length) {
    throw badRequest('levelPlans: every plan must be a plan of this application');
  }
  if (record.kind === 'keys' && found.some((plan) => plan.isArchived)) {
    // As for generated keys: an archived plan gets no new keys.
    throw new AppError('CONFLICT', 'levelPlans: an archived plan gets no new keys');
  }
}

function quoteList(levels: readonly string[]): string {
  return levels.map((level) => `'${level}'`).join(', ');
}

/** The batches, until no row is left; a failure marks the import failed, to be resumed. */
async function runImport(ctx: ImportContext, record: ImportRecord): Promise<void> {
  try {
    // Rows are taken in row order, so each batch starts after the last one's end (keyset):
    // an OFFSET or a rescan of done rows would make a 100,000-row import quadratic.
    let afterRowNumber: number | null = 0;
    while (afterRowNumber !== null) {
      const after: number = afterRowNumber;
      afterRowNumber = await ctx.db.transaction((tx) => runBatch(ctx, tx, record, after));
    }
    const now = ctx.clock.now();
    await ctx.db
      .update(imports)
      .set({ status: 'done', finishedAt: now, updatedAt: now })
      .where(eq(imports.id, record.id));
    ctx.log.info({ applicationId: record.applicationId, importId: record.id }, 'import done');
  } catch (error) {
    ctx.log.error(
      { err: error, applicationId: record.applicationId, importId: record.id },
      'import failed',
    );
    const now = ctx.clock.now();
    await ctx.db
      .update(imports)
      .set({
        status: 'failed',
        error: 'The import stopped on an unexpected error; start it again to continue.',
        updatedAt: now,
      })
      .where(eq(imports.id, record.id))
      .catch((markError: unknown) =>
        ctx.log.error({ err: markError, importId: record.id }, 'import not marked failed'),
      );
  }
}

/**
 * One batch in one transaction: its users or keys, its rows marked done, the counts. Answers
 * the last row number it handled, or null when no row was left.
 */
async function runBatch(
  ctx: ImportContext,
  tx: Database,
  record: ImportRecord,
  afterRowNumber: number,
): Promise<number | null> {
  const batch = await tx
    .select({ rowNumber: importRows.rowNumber, data: importRows.data })
    .from(importRows)
    .where(
      and(
        eq(importRows.importId, record.id),
        gt(importRows.rowNumber, afterRowNumber),
        eq(importRows.isDone, false),
      ),
    )
    .orderBy(importRows.rowNumber)
    .limit(IMPORT_BATCH_ROWS);
  if (batch.length === 0) return null;
  const now = ctx.clock.now();
  const created =
    record.kind === 'users'
      ? await writeUsers(
          tx,
          record,
          batch.map((row) => unsealUserRow(row.data, ctx.serverSecret)),
          now,
        )
      : await writeKeys(
          ctx,
          tx,
          record,
          batch.map((row) => unsealKeyRow(row.data, ctx.serverSecret)),
          now,
        );
  await tx
    .update(importRows)
    .set({ isDone: true })
    .where(
      and(
        eq(importRows.importId, record.id),
        inArray(
          importRows.rowNumber,
          batch.map((row) => row.rowNumber),
        ),
      ),
    );
  await tx
    .update(imports)
    .set({
      doneRows: sql`${imports.doneRows} + ${batch.length}`,
      createdRows: sql`${imports.createdRows} + ${created}`,
      skippedRows: sql`${imports.skippedRows} + ${batch.length - created}`,
      updatedAt: now,
    })
    .where(eq(imports.id, record.id));
  return batch.at(-1)!.rowNumber;
}

/**
 * Users, with ON CONFLICT DO NOTHING: a username the application has meanwhile is skipped, not
 * overwritten. The HWID is the user's first device, written here with the summary columns
 * (app_users.hwid, device_count) in the same transaction, as modules/devices/ keeps them:
 * binding 100,000 users one by one through setUserHwid would take minutes.
 */
async function writeUsers(
  tx: Database,
  record: ImportRecord,
  rows: readonly KeyAuthUserRow[],
  now: Date,
): Promise<number> {
  const inserted = await tx
    .insert(appUsers)
    .values(
      rows.map((row) => ({
        applicationId: record.applicationId,
        username: row.username,
        email: row.email,
        // bcrypt stays until the user's first login replaces it with argon2id.
        passwordHash: row.passwordHash ?? UNUSABLE_PASSWORD_HASH,
        isActive: !row.isBanned,
        expiresAt: latestExpiry(row, now),
        hwid: row.hwid,
        deviceCount: row.hwid === null ? 0 : 1,
        lastLogin: row.lastLoginAt,
        createdAt: row.createdAt ?? now,
        updatedAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: appUsers.id, username: appUsers.username });
  if (inserted.length === 0) return 0;
  const rowsByUsername = new Map(rows.map((row) => [row.username, row]));

  const devices = inserted.flatMap(({ id, username }) => {
    const hwid = rowsByUsername.get(username)?.hwid ?? null;
    return hwid === null
      ? []
      : [{ applicationId: record.applicationId, appUserId: id, hwid, firstSeenAt: now }];
  });
  if (devices.length > 0) await tx.insert(appUserDevices).values(devices);

  const granted = inserted.flatMap(({ id, username }) =>
    grantedSubscriptions(rowsByUsername.get(username)!, record.levelPlans, now).map((grant) => ({
      applicationId: record.applicationId,
      appUserId: id,
      ...grant,
    })),
  );
  if (granted.length > 0) await tx.insert(subscriptions).values(granted);
  return inserted.length;
}

/** A paused KeyAuth subscription keeps the time it had left, counted from the import. */
function expiryOf(subscription: KeyAuthUserRow['subscriptions'][number], now: Date): Date | null {
  if (subscription.expiresAt !== null) return subscription.expiresAt;
  if (subscription.pausedSecondsLeft !== null) {
    return new Date(now.getTime() + subscription.pausedSecondsLeft * 1000);
  }
  return null;
}

function latestExpiry(row: KeyAuthUserRow, now: Date): Date | null {
  let latest: Date | null = null;
  for (const subscription of row.subscriptions) {
    const expiry = expiryOf(subscription, now);
    if (expiry !== null && (latest === null || expiry > latest)) latest = expiry;
  }
  return latest;
}

/** One subscription per plan (the table's unique pair): the latest expiry of its levels. */
function grantedSubscriptions(
  row: KeyAuthUserRow,
  levelPlans: Record<string, string>,
  now: Date,
): { planId: string; expiresAt: Date | null; createdAt: Date; updatedAt: Date }[] {
  const byPlan = new Map<string, Date | null>();
  for (const subscription of row.subscriptions) {
    const planId = levelPlans[subscriptionLevel(subscription)];
    if (planId === undefined) continue;
    const expiry = expiryOf(subscription, now);
    const held = byPlan.get(planId);
    if (held === undefined || (held !== null && expiry !== null && expiry > held)) {
      byPlan.set(planId, expiry);
    }
  }
  return [...byPlan].map(([planId, expiresAt]) => ({
    planId,
    expiresAt,
    createdAt: now,
    updatedAt: now,
  }));
}

/**
 * Keys keep their text (found by digest, sealed for reveal) and their status. A used key
 * names its user when the application has one by that username (imported users first, then
 * keys); a banned key that was used keeps that user and `was_used`, as a ban here would.
 */
async function writeKeys(
  ctx: ImportContext,
  tx: Database,
  record: ImportRecord,
  rows: readonly KeyAuthKeyRow[],
  now: Date,
): Promise<number> {
  const usernames = [...new Set(rows.flatMap((row) => (row.usedBy === null ? [] : [row.usedBy])))];
  const users =
    usernames.length === 0
      ? []
      : await tx
          .select({ id: appUsers.id, username: appUsers.username })
          .from(appUsers)
          .where(
            and(
              eq(appUsers.applicationId, record.applicationId),
              inArray(appUsers.username, usernames),
            ),
          );
  const userIds = new Map(users.map((user) => [user.username, user.id]));
  const inserted = await tx
    .insert(licenseKeys)
    .values(
      rows.map((row) => {
        const state = row.status ?? 'unused';
        const usedByUserId = row.usedBy === null ? null : (userIds.get(row.usedBy) ?? null);
        const wasUsed = state === 'used' || (state === 'banned' && row.usedBy !== null);
        return {
          applicationId: record.applicationId,
          planId: record.levelPlans[row.level ?? KEY_WITHOUT_LEVEL]!,
          keyDigest: licenseKeyDigest(row.key, ctx.serverSecret),
          keySealed: sealLicenseKey(row.key, ctx.serverSecret),
          display: licenseKeyDisplay(row.key),
          keySuffix: licenseKeySuffix(row.key),
          state,
          note: row.note,
          usedByUserId: wasUsed ? usedByUserId : null,
          // A used key must say when (the table's check); KeyAuth's usedon may be absent.
          usedAt: wasUsed ? (row.usedAt ?? row.createdAt ?? now) : null,
          wasUsed,
          bannedReason: state === 'banned' ? row.banReason : null,
          bannedAt: state === 'banned' ? now : null,
          createdAt: row.createdAt ?? now,
        };
      }),
    )
    .onConflictDoNothing()
    .returning({ id: licenseKeys.id });
  return inserted.length;
}
