import { and, eq, sql } from 'drizzle-orm';
import { KEYAUTH_NAME_TAKEN, type ImportKeyauthSettings } from '@latchkey/contracts';
import { applications, importRows, imports, type ImportRecord } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../../lib/database-errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { unsealKeyauthSecret } from '../applications/index.ts';
import type { ImportContext } from './import-context.ts';
import {
  KEYAUTH_SETTINGS_ROW_NUMBER,
  type KeptKeyauthSettings,
  readKeptKeyauthSettings,
} from './kept-keyauth-settings.ts';

export const KEYAUTH_COMPATIBILITY_ON =
  'KeyAuth compatibility is on with other KeyAuth settings, which the import does not change ' +
  '(programs may be using them): change them in the application\u2019s settings';

/**
 * Writes the application's KeyAuth owner id, name and secret that the file holds, once, in
 * one transaction before the first batch; a resumed import finds the row done and goes on.
 * Only the settings the file holds are written (a users export holds the secret alone).
 *
 * They are written while compatibility is off, and never turn it on: the owner does, once the
 * import is checked. While it is on, programs are signing in with the settings the application
 * has, so the import leaves them and says so. Writing while it is off also means no cache
 * holds them: the compatible API answers only applications that have it on, and turning it on
 * is the owner's update, which tells the caches. Another application's owner id and name (the
 * unique index, any owner's) is refused the same way, by a savepoint, without quoting it. The
 * secret is sealed as it was kept (kept-keyauth-settings.ts) and never logged.
 *
 * Answers the outcome, or null when the import holds no settings or they were already done.
 */
export async function writeImportedKeyauthSettings(
  ctx: ImportContext,
  record: ImportRecord,
): Promise<ImportKeyauthSettings['outcome'] | null> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ data: importRows.data, isDone: importRows.isDone })
      .from(importRows)
      .where(
        and(
          eq(importRows.importId, record.id),
          eq(importRows.rowNumber, KEYAUTH_SETTINGS_ROW_NUMBER),
        ),
      )
      .for('update');
    if (!row || row.isDone) return null;
    const kept = readKeptKeyauthSettings(row.data);
    const settled = kept.outcome === 'refused' ? kept : await settle(ctx, tx, record, kept);
    await tx
      .update(importRows)
      .set({ data: JSON.stringify(settled), isDone: true })
      .where(
        and(
          eq(importRows.importId, record.id),
          eq(importRows.rowNumber, KEYAUTH_SETTINGS_ROW_NUMBER),
        ),
      );
    if (record.kind === 'application') {
      // The apps table's one row is the whole of an `application` import.
      const created = settled.outcome === 'written' ? 1 : 0;
      await tx
        .update(imports)
        .set({
          doneRows: sql`${imports.doneRows} + 1`,
          createdRows: sql`${imports.createdRows} + ${created}`,
          skippedRows: sql`${imports.skippedRows} + ${1 - created}`,
          updatedAt: ctx.clock.now(),
        })
        .where(eq(imports.id, record.id));
    }
    return settled.outcome;
  });
}

async function settle(
  ctx: ImportContext,
  tx: ImportContext['db'],
  record: ImportRecord,
  kept: KeptKeyauthSettings,
): Promise<KeptKeyauthSettings> {
  const [application] = await tx
    .select({
      id: applications.id,
      name: applications.name,
      keyauthCompatibility: applications.keyauthCompatibility,
      keyauthOwnerId: applications.keyauthOwnerId,
      keyauthName: applications.keyauthName,
      keyauthSecretSealed: applications.keyauthSecretSealed,
    })
    .from(applications)
    .where(
      and(
        eq(applications.id, record.applicationId),
        eq(applications.ownerAccountId, record.ownerAccountId),
      ),
    )
    .for('update');
  if (!application) throw new Error('the import\u2019s application is gone');
  const unseal = (sealed: string | null) =>
    sealed === null ? null : unsealKeyauthSecret(sealed, ctx.serverSecret);
  const changes = {
    keyauthOwnerId:
      kept.ownerId !== null && kept.ownerId !== application.keyauthOwnerId
        ? kept.ownerId
        : undefined,
    keyauthName:
      kept.name !== null && kept.name !== application.keyauthName ? kept.name : undefined,
    keyauthSecretSealed:
      kept.secretSealed !== null &&
      unseal(kept.secretSealed) !== unseal(application.keyauthSecretSealed)
        ? kept.secretSealed
        : undefined,
  };
  const changed = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (changed.length === 0) return { ...kept, outcome: 'unchanged', problem: null };
  if (application.keyauthCompatibility) {
    return { ...kept, outcome: 'refused', problem: KEYAUTH_COMPATIBILITY_ON };
  }
  try {
    await tx.transaction(async (savepoint) => {
      await savepoint
        .update(applications)
        .set({ ...changes, updatedAt: ctx.clock.now() })
        .where(eq(applications.id, application.id));
      await recordOwnerWrite({
        ctx: { ...ctx, db: savepoint },
        input: {
          action: 'application_updated',
          application: { id: application.id, name: application.name },
          target: { kind: 'application', id: application.id, label: application.name },
          // The owner id and name are no secrets (a program ships them); the secret is.
          change: {
            fromImport: record.id,
            ownerId: changes.keyauthOwnerId,
            name: changes.keyauthName,
            isCredentialReplaced: changes.keyauthSecretSealed !== undefined,
          },
        },
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error, 'applications_keyauth_idx')) throw error;
    return { ...kept, outcome: 'refused', problem: KEYAUTH_NAME_TAKEN };
  }
  ctx.log.info(
    { applicationId: application.id, importId: record.id, fields: changed.map(([name]) => name) },
    'KeyAuth settings imported',
  );
  return { ...kept, outcome: 'written', problem: null };
}
