import { and, eq } from 'drizzle-orm';
import type { ImportKeyauthSettings } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { importRows } from '../../db/schema/index.ts';
import { sealKeyauthSecret } from '../applications/index.ts';
import type { KeyAuthApplication } from './keyauth-export.ts';

/**
 * The application's KeyAuth settings found in a file are kept with the import as row 0 of
 * import_rows, before the file's rows (numbered from 1), which the batches never reach: they
 * are written once, before the first batch (write-imported-keyauth-settings.ts), and the row
 * then records what became of them. Unlike the other kept rows this one is plain JSON, so an
 * import's answer shows them without the server secret: only the secret is sealed, and with
 * the applications' own KeyAuth sealer, so the run copies it into the application as it is.
 */
export const KEYAUTH_SETTINGS_ROW_NUMBER = 0;

export interface KeptKeyauthSettings {
  /** The row of the file they were read from. */
  rowNumber: number;
  ownerId: string | null;
  name: string | null;
  secretSealed: string | null;
  outcome: ImportKeyauthSettings['outcome'];
  problem: string | null;
}

export function keepKeyauthSettings(
  application: KeyAuthApplication,
  serverSecret: string,
  predictedProblem: string | null,
): KeptKeyauthSettings {
  return {
    rowNumber: application.rowNumber,
    ownerId: application.ownerId,
    name: application.name,
    secretSealed:
      application.secret === null ? null : sealKeyauthSecret(application.secret, serverSecret),
    // A problem of the file itself (two secrets) is final; one of the application may pass.
    outcome: application.problem === null ? 'pending' : 'refused',
    problem: application.problem ?? predictedProblem,
  };
}

export function readKeptKeyauthSettings(data: string): KeptKeyauthSettings {
  return JSON.parse(data) as KeptKeyauthSettings;
}

/** The settings an import keeps, if its file held any: one lookup by primary key. */
export async function loadKeptKeyauthSettings(
  db: Database,
  importId: string,
): Promise<KeptKeyauthSettings | null> {
  const [row] = await db
    .select({ data: importRows.data })
    .from(importRows)
    .where(
      and(eq(importRows.importId, importId), eq(importRows.rowNumber, KEYAUTH_SETTINGS_ROW_NUMBER)),
    );
  return row ? readKeptKeyauthSettings(row.data) : null;
}

export function toImportKeyauthSettings(kept: KeptKeyauthSettings): ImportKeyauthSettings {
  return {
    ownerId: kept.ownerId,
    name: kept.name,
    hasSecret: kept.secretSealed !== null,
    outcome: kept.outcome,
    problem: kept.problem,
  };
}
