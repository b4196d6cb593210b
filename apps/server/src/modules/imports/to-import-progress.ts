import { importLimits, type ImportProgress } from '@latchkey/contracts';
import type { ImportRecord } from '../../db/schema/index.ts';

/** An import as the API answers it: the problems cut to the first 100, the counts exact. */
export function toImportProgress(record: ImportRecord): ImportProgress {
  return {
    id: record.id,
    source: record.source,
    kind: record.kind,
    format: record.format,
    status: record.status,
    totalRows: record.totalRows,
    readableRows: record.readableRows,
    conflictRows: record.conflictRows,
    unreadableRows: record.unreadableRows,
    doneRows: record.doneRows,
    createdRows: record.createdRows,
    skippedRows: record.skippedRows,
    conflicts: record.conflicts.slice(0, importLimits.problemsAnswered),
    unreadable: record.unreadable.slice(0, importLimits.problemsAnswered),
    levels: record.levels,
    levelPlans: record.levelPlans,
    error: record.error,
    createdAt: record.createdAt.toISOString(),
    startedAt: record.startedAt?.toISOString() ?? null,
    finishedAt: record.finishedAt?.toISOString() ?? null,
  };
}
