import { and, eq, gt, inArray, lt, lte, or, sql } from 'drizzle-orm';
import {
  IMPORT_KIND_NEEDS_CONSOLE,
  tokenImportKindSchema,
  type ImportKind,
  type ImportProgress,
  type StartImportRequest,
} from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { importRows, imports, plans, type ImportRecord } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import type { ImportContext } from './import-context.ts';
import { unsealImportRow } from './import-row-sealing.ts';
import { loadKeptKeyauthSettings } from './kept-keyauth-settings.ts';
import { loadOwnedImport } from './load-owned-import.ts';
import { markPlanLevels } from './mark-plan-levels.ts';
import { toImportProgress } from './to-import-progress.ts';
import { writeImportedBans } from './write-imported-bans.ts';
import { writeImportedKeyauthSettings } from './write-imported-keyauth-settings.ts';
import { writeImportedKeys } from './write-imported-keys.ts';
import { writeImportedSubscriptions } from './write-imported-subscriptions.ts';
import { writeImportedUserVariables } from './write-imported-user-variables.ts';
import { writeImportedUsers } from './write-imported-users.ts';
import { writeImportedVariables } from './write-imported-variables.ts';

/** Rows per transaction: a batch is all written or none. */
export const IMPORT_BATCH_ROWS = 1_000;
/** A running import not advanced for this long lost its process and may be started again. */
export const IMPORT_STALE_AFTER_MS = 60_000;
/**
 * Starts (or resumes) a previewed import with each KeyAuth level mapped to a plan of the
 * application, and answers its progress at once; the application's KeyAuth settings the file
 * holds, then the rows, are written in the background, one transaction per batch, by `run`
 * (the caller keeps that promise). Claiming the import is one conditional UPDATE, so two
 * instances starting it at once run it once. A failed import, or a running one whose process
 * died, continues with what is not yet done; a done import is answered as it is, and writes
 * nothing twice. A management API token starts users and keys only, as it previews them.
 */
export async function startImport({
  ctx,
  input,
}: {
  ctx: ImportContext;
  input: { applicationId: number; importId: string; request: StartImportRequest };
}): Promise<{ progress: ImportProgress; run: Promise<void> | null }> {
  const record = await loadOwnedImport({ ctx, input });
  const { kind } = record;
  if (ctx.actor.token !== null && !tokenImportKindSchema.safeParse(kind).success) {
    throw new AppError('FORBIDDEN', IMPORT_KIND_NEEDS_CONSOLE);
  }
  const settings = await loadKeptKeyauthSettings(ctx.db, record.id);
  if (record.status === 'done') {
    return { progress: toImportProgress(record, settings), run: null };
  }
  const requested = input.request.levelPlans ?? {};
  await checkLevelPlans(ctx, record, requested);
  // A resumed subscriptions import keeps what its earlier batches mapped (the plans they made,
  // and the subscription names), under what this start maps.
  const levelPlans =
    kind === 'subscriptions' && record.status !== 'previewed'
      ? { ...record.levelPlans, ...requested }
      : requested;

  const now = ctx.clock.now();
  const claimed = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
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
    // The rows are written after the answer, batch by batch; this records who started them.
    if (row) {
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'import_started',
          application: { id: row.applicationId },
          target: { kind: 'import', id: row.id, label: `KeyAuth ${kind}` },
          change: { levelPlans: requested, isResumed: record.status !== 'previewed' },
        },
      });
    }
    return row;
  });
  if (!claimed) throw new AppError('CONFLICT', 'This import is already running');
  ctx.log.info({ applicationId: record.applicationId, importId: record.id }, 'import started');
  return { progress: toImportProgress(claimed, settings), run: runImport(ctx, claimed) };
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
  const { kind } = record;
  if (kind === 'keys') {
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
    .where(
      and(
        eq(plans.applicationId, record.applicationId),
        eq(plans.isTrial, false),
        inArray(plans.id, planIds),
      ),
    );
  if (found.length !== planIds.length) {
    throw badRequest('levelPlans: every plan must be a plan of this application');
  }
  if (kind === 'keys' && found.some((plan) => plan.isArchived)) {
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
    await writeImportedKeyauthSettings(ctx, record);
    const { kind } = record;
    if (kind === 'users' || kind === 'keys') {
      // The levels as mapped at the start; a subscriptions import marks its own per batch.
      await ctx.db.transaction((tx) =>
        markPlanLevels(tx, record.applicationId, record.levelPlans, ctx.clock.now()),
      );
    }
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

type BatchWriter = (
  ctx: ImportContext,
  tx: Database,
  record: ImportRecord,
  sealedRows: readonly string[],
  now: Date,
) => Promise<number>;

/** Each kind's rows, unsealed as its reader made them, and what writes them. */
const batchWriters: Record<ImportKind, BatchWriter> = {
  users: (ctx, tx, record, sealed, now) =>
    writeImportedUsers(tx, record, unsealedRows(sealed, ctx), now),
  keys: (ctx, tx, record, sealed, now) =>
    writeImportedKeys(tx, record, unsealedRows(sealed, ctx), now, ctx.serverSecret),
  subscriptions: (ctx, tx, record, sealed, now) =>
    writeImportedSubscriptions(tx, record, unsealedRows(sealed, ctx), now),
  variables: (ctx, tx, record, sealed, now) =>
    writeImportedVariables(tx, record, unsealedRows(sealed, ctx), now),
  'user-variables': (ctx, tx, record, sealed, now) =>
    writeImportedUserVariables(tx, record, unsealedRows(sealed, ctx), now),
  blacklist: (ctx, tx, record, sealed, now) =>
    writeImportedBans(tx, record, unsealedRows(sealed, ctx), now),
  // Nothing is made of a file (find-import-conflicts.ts): each row is listed, and skipped.
  files: async () => 0,
  // The apps table's row is the import's settings, written before the batches.
  application: async () => 0,
};

function unsealedRows<Row>(sealed: readonly string[], ctx: ImportContext): Row[] {
  return sealed.map((data) => unsealImportRow<Row>(data, ctx.serverSecret));
}

/**
 * One batch in one transaction: what its rows make, its rows marked done, the counts. Answers
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
  const lastRowNumber = batch.at(-1)!.rowNumber;
  const writeBatch = batchWriters[record.kind];
  const created = await writeBatch(
    ctx,
    tx,
    record,
    batch.map((row) => row.data),
    now,
  );
  // The batch is every row not done in this range, so the range marks exactly it (a list of
  // 1,000 row numbers would be 1,000 parameters).
  await tx
    .update(importRows)
    .set({ isDone: true })
    .where(
      and(
        eq(importRows.importId, record.id),
        gt(importRows.rowNumber, afterRowNumber),
        lte(importRows.rowNumber, lastRowNumber),
        eq(importRows.isDone, false),
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
  return lastRowNumber;
}
