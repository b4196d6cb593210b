import { importLimits, type ImportFileToUpload, type ImportProgress } from '@latchkey/contracts';
import type { ImportRecord, ImportRowProblem } from '../../db/schema/index.ts';
import { type KeptKeyauthSettings, toImportKeyauthSettings } from './kept-keyauth-settings.ts';

/**
 * A conflict as kept in the imports table: a files import's conflicts are its files, each
 * with what the owner needs to upload it again (never its URL, which may be what kept the
 * vendor's download private).
 */
export interface KeptImportProblem extends ImportRowProblem {
  file?: Omit<ImportFileToUpload, 'rowNumber'>;
}

/** An import as the API answers it: the problems cut to the first 100, the counts exact. */
export function toImportProgress(
  record: ImportRecord,
  keyauthSettings: KeptKeyauthSettings | null = null,
): ImportProgress {
  const { kind, format } = record;
  const conflicts: KeptImportProblem[] = record.conflicts;
  return {
    id: record.id,
    source: record.source,
    kind,
    format,
    status: record.status,
    totalRows: record.totalRows,
    readableRows: record.readableRows,
    conflictRows: record.conflictRows,
    unreadableRows: record.unreadableRows,
    doneRows: record.doneRows,
    createdRows: record.createdRows,
    skippedRows: record.skippedRows,
    conflicts: conflicts
      .slice(0, importLimits.problemsAnswered)
      .map(({ rowNumber, reason }) => ({ rowNumber, reason })),
    unreadable: record.unreadable.slice(0, importLimits.problemsAnswered),
    levels: record.levels,
    levelPlans: record.levelPlans,
    filesToUpload: conflicts
      .flatMap((problem) =>
        problem.file ? [{ rowNumber: problem.rowNumber, ...problem.file }] : [],
      )
      .slice(0, importLimits.problemsAnswered),
    keyauthSettings: keyauthSettings && toImportKeyauthSettings(keyauthSettings),
    error: record.error,
    createdAt: record.createdAt.toISOString(),
    startedAt: record.startedAt?.toISOString() ?? null,
    finishedAt: record.finishedAt?.toISOString() ?? null,
  };
}
