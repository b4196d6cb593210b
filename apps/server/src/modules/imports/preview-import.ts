import { and, eq, sql } from 'drizzle-orm';
import { importLimits, type ImportKind, type ImportProgress } from '@latchkey/contracts';
import { appUsers, imports, licenseKeys, type ImportRowProblem } from '../../db/schema/index.ts';
import { badRequest } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { licenseKeyDigest } from '../licenses/index.ts';
import type { ImportContext } from './import-context.ts';
import { sealImportRow } from './import-row-sealing.ts';
import {
  type KeyAuthKeyRow,
  type KeyAuthSubscription,
  type KeyAuthUserRow,
  parseKeyAuthKeys,
  parseKeyAuthUsers,
  UnreadableExportError,
} from './keyauth-export.ts';
import { toImportProgress } from './to-import-progress.ts';

/** Values per lookup statement: far below PostgreSQL's 65,535 parameters. */
const LOOKUP_CHUNK = 5_000;
/** Kept rows per INSERT. */
const ROWS_PER_INSERT = 1_000;

/** A key without a level (KeyAuth's text and panel files may have none) is mapped as this. */
export const KEY_WITHOUT_LEVEL = '';

/**
 * Reads an uploaded KeyAuth export and keeps what the start will import, answering what it
 * would do: rows, conflicts (a username or key the application already has: skipped when
 * run) and unreadable rows, with their row numbers. Nothing is written to users or keys here.
 * The rows are kept sealed (they hold keys and password hashes) in one transaction, so a
 * preview exists whole or not at all.
 */
export async function previewImport({
  ctx,
  input,
}: {
  ctx: ImportContext;
  input: { applicationId: number; kind: ImportKind; bytes: Uint8Array };
}): Promise<ImportProgress> {
  const application = await loadOwnedApplication({ ctx, input });
  const parsed = parseFile(input.kind, input.bytes);
  const conflicts =
    parsed.kind === 'users'
      ? await userConflicts(ctx, application.id, parsed.rows)
      : await keyConflicts(ctx, application.id, parsed.rows);
  const levels = parsed.kind === 'users' ? userLevels(parsed.rows) : keyLevels(parsed.rows);
  const rows: (KeyAuthUserRow | KeyAuthKeyRow)[] = parsed.rows;
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
        totalRows: rows.length + parsed.unreadable.length,
        readableRows: rows.length,
        conflictRows: conflicts.length,
        unreadableRows: parsed.unreadable.length,
        conflicts: conflicts.slice(0, importLimits.problemsKept),
        unreadable: [...parsed.unreadable]
          .sort((first, second) => first.rowNumber - second.rowNumber)
          .slice(0, importLimits.problemsKept),
        levels,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
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
    // The file's shape, never its rows: they hold keys and password hashes.
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
    { applicationId: application.id, importId: record.id, kind: input.kind, rows: rows.length },
    'import previewed',
  );
  return toImportProgress(record);
}

type ParsedFile =
  | { kind: 'users'; format: string; rows: KeyAuthUserRow[]; unreadable: ImportRowProblem[] }
  | { kind: 'keys'; format: string; rows: KeyAuthKeyRow[]; unreadable: ImportRowProblem[] };

function parseFile(kind: ImportKind, bytes: Uint8Array): ParsedFile {
  try {
    return kind === 'users'
      ? { kind, ...parseKeyAuthUsers(bytes) }
      : { kind, ...parseKeyAuthKeys(bytes) };
  } catch (error) {
    // The reader's messages name lines and columns, never a key or a hash.
    if (error instanceof UnreadableExportError) throw badRequest(error.message);
    throw error;
  }
}

function chunks<Item>(items: readonly Item[]): Item[][] {
  const result: Item[][] = [];
  for (let start = 0; start < items.length; start += LOOKUP_CHUNK) {
    result.push(items.slice(start, start + LOOKUP_CHUNK));
  }
  return result;
}

async function userConflicts(
  ctx: ImportContext,
  applicationId: number,
  rows: readonly KeyAuthUserRow[],
): Promise<ImportRowProblem[]> {
  const existing = new Set<string>();
  for (const chunk of chunks(rows.map((row) => row.username))) {
    const found = await ctx.db
      .select({ username: appUsers.username })
      .from(appUsers)
      .where(
        and(
          eq(appUsers.applicationId, applicationId),
          // One array parameter, not a list of 5,000 (drizzle's inArray).
          sql`${appUsers.username} = any(${sql.param(chunk)}::text[])`,
        ),
      );
    for (const { username } of found) existing.add(username);
  }
  return rows
    .filter((row) => existing.has(row.username))
    .map((row) => ({
      rowNumber: row.rowNumber,
      reason: `row ${row.rowNumber}: the application already has a user named '${row.username}'`,
    }));
}

async function keyConflicts(
  ctx: ImportContext,
  applicationId: number,
  rows: readonly KeyAuthKeyRow[],
): Promise<ImportRowProblem[]> {
  const digests = rows.map((row) => licenseKeyDigest(row.key, ctx.serverSecret));
  const existing = new Set<string>();
  for (const chunk of chunks(digests)) {
    const found = await ctx.db
      .select({ keyDigest: licenseKeys.keyDigest })
      .from(licenseKeys)
      .where(
        and(
          eq(licenseKeys.applicationId, applicationId),
          sql`${licenseKeys.keyDigest} = any(${sql.param(chunk)}::text[])`,
        ),
      );
    for (const { keyDigest } of found) existing.add(keyDigest);
  }
  // The reason never quotes the key: it is a bearer secret.
  return rows
    .filter((_row, index) => existing.has(digests[index]!))
    .map((row) => ({
      rowNumber: row.rowNumber,
      reason: `row ${row.rowNumber}: the application already has this licence key`,
    }));
}

/**
 * What a user's subscription is mapped by: its level, or its name where the file has no level
 * (the panel's file names every subscription "default" and gives no level).
 */
export function subscriptionLevel(subscription: KeyAuthSubscription): string {
  return subscription.level ?? subscription.name;
}

function userLevels(rows: readonly KeyAuthUserRow[]): string[] {
  const levels = new Set<string>();
  for (const row of rows) {
    for (const subscription of row.subscriptions) levels.add(subscriptionLevel(subscription));
  }
  return [...levels].sort();
}

function keyLevels(rows: readonly KeyAuthKeyRow[]): string[] {
  return [...new Set(rows.map((row) => row.level ?? KEY_WITHOUT_LEVEL))].sort();
}
