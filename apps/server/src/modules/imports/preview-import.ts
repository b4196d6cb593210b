import { and, eq, ne, sql } from 'drizzle-orm';
import {
  IMPORT_KIND_NEEDS_CONSOLE,
  importLimits,
  KEYAUTH_NAME_TAKEN,
  tokenImportKindSchema,
  type ImportKind,
  type ImportProgress,
} from '@latchkey/contracts';
import { applications, imports, type Application } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { unsealKeyauthSecret } from '../applications/index.ts';
import { reviewImportRows } from './find-import-conflicts.ts';
import type { ImportContext } from './import-context.ts';
import { sealImportRow } from './import-row-sealing.ts';
import {
  keepKeyauthSettings,
  KEYAUTH_SETTINGS_ROW_NUMBER,
  type KeptKeyauthSettings,
} from './kept-keyauth-settings.ts';
import type { KeyAuthApplication } from './keyauth-export.ts';
import { parseImportFile } from './parse-import-file.ts';
import { rememberedLevelPlans } from './remembered-level-plans.ts';
import { toImportProgress } from './to-import-progress.ts';
import { KEYAUTH_COMPATIBILITY_ON } from './write-imported-keyauth-settings.ts';

/** Kept rows per INSERT. */
const ROWS_PER_INSERT = 1_000;

/**
 * Reads an uploaded KeyAuth export and keeps what the start will import, answering what it
 * would do: rows, conflicts (rows the run will skip, with why) and unreadable rows, with
 * their row numbers, the levels with the plans earlier imports gave them, and the
 * application's KeyAuth settings the file holds. Nothing is written to the application here.
 * The rows are kept sealed (they hold keys, password hashes and variables' values) in one
 * transaction, so a preview exists whole or not at all.
 *
 * A management API token imports users and keys only: its scopes say nothing of plans,
 * variables, the blacklist or the application's KeyAuth secret.
 */
export async function previewImport({
  ctx,
  input,
}: {
  ctx: ImportContext;
  input: { applicationId: number; kind: ImportKind; bytes: Uint8Array };
}): Promise<ImportProgress> {
  if (ctx.actor.token !== null && !tokenImportKindSchema.safeParse(input.kind).success) {
    throw new AppError('FORBIDDEN', IMPORT_KIND_NEEDS_CONSOLE);
  }
  const application = await loadOwnedApplication({ ctx, input });
  const parsed = parseImportFile(input.kind, input.bytes);
  const review = await reviewImportRows(ctx.db, application.id, ctx.account.id, parsed, {
    serverSecret: ctx.serverSecret,
    remembered: await rememberedLevelPlans(ctx.db, application.id, null),
  });
  const settings =
    parsed.application &&
    keepKeyauthSettings(
      parsed.application,
      ctx.serverSecret,
      await predictSettingsProblem(ctx, application, parsed.application),
    );
  const rows: { rowNumber: number }[] = parsed.rows;
  // The apps table's row is the import's one row, kept as its settings.
  const readableRows = parsed.kind === 'application' ? 1 : rows.length;
  const now = ctx.clock.now();

  const record = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(imports)
      .values({
        ownerAccountId: ctx.account.id,
        applicationId: application.id,
        source: 'keyauth',
        kind: input.kind,
        format: parsed.format,
        totalRows: readableRows + parsed.unreadable.length,
        readableRows,
        conflictRows: review.conflicts.length,
        unreadableRows: parsed.unreadable.length,
        conflicts: review.conflicts.slice(0, importLimits.problemsKept),
        unreadable: [...parsed.unreadable]
          .sort((first, second) => first.rowNumber - second.rowNumber)
          .slice(0, importLimits.problemsKept),
        levels: review.levels,
        levelPlans: review.levelPlans,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    if (settings) {
      await tx.execute(sql`
        insert into import_rows (import_id, row_number, data)
        values (${created.id}::uuid, ${KEYAUTH_SETTINGS_ROW_NUMBER}, ${JSON.stringify(settings)})`);
    }
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      // One jsonb document a statement, not drizzle's multi-row VALUES: building and binding
      // thousands of parameters cost more CPU than the insert (write-imported-users.ts).
      const kept = rows.slice(start, start + ROWS_PER_INSERT).map((row) => ({
        row_number: row.rowNumber,
        data: sealImportRow(row, ctx.serverSecret),
      }));
      await tx.execute(sql`
        insert into import_rows (import_id, row_number, data)
        select ${created.id}::uuid, r.row_number, r.data
        from jsonb_to_recordset(${JSON.stringify(kept)}::jsonb) as r(row_number int, data text)`);
    }
    // The file's shape, never its rows: they hold keys, password hashes and secrets.
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'import_previewed',
        application: { id: application.id, name: application.name },
        target: { kind: 'import', id: created.id, label: `KeyAuth ${input.kind}` },
        change: {
          kind: input.kind,
          format: parsed.format,
          fileBytes: input.bytes.byteLength,
          readableRows: created.readableRows,
          conflictRows: created.conflictRows,
          unreadableRows: created.unreadableRows,
        },
      },
    });
    return created;
  });
  ctx.log.info(
    { applicationId: application.id, importId: record.id, kind: input.kind, rows: readableRows },
    'import previewed',
  );
  return toImportProgress(record, settings);
}

/**
 * What would keep the file's KeyAuth settings from being written, as the application stands
 * now (write-imported-keyauth-settings.ts decides at the start): compatibility on with other
 * settings, or another application's owner id and name. The other application is not named:
 * it may be another owner's.
 */
async function predictSettingsProblem(
  ctx: ImportContext,
  application: Application,
  found: KeyAuthApplication,
): Promise<KeptKeyauthSettings['problem']> {
  if (found.problem !== null) return null;
  if (application.keyauthCompatibility) {
    const current =
      application.keyauthSecretSealed === null
        ? null
        : unsealKeyauthSecret(application.keyauthSecretSealed, ctx.serverSecret);
    const differs =
      (found.ownerId !== null && found.ownerId !== application.keyauthOwnerId) ||
      (found.name !== null && found.name !== application.keyauthName) ||
      (found.secret !== null && found.secret !== current);
    if (differs) return KEYAUTH_COMPATIBILITY_ON;
  }
  if (found.ownerId === null || found.name === null) return null;
  const [taken] = await ctx.db
    .select({ id: applications.id })
    .from(applications)
    .where(
      and(
        eq(applications.keyauthOwnerId, found.ownerId),
        eq(applications.keyauthName, found.name),
        ne(applications.id, application.id),
      ),
    )
    .limit(1);
  return taken ? KEYAUTH_NAME_TAKEN : null;
}
