import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { CLEAN_TEXT_MESSAGE, isCleanText } from './clean-text.ts';

/**
 * Importing an application's users or licence keys from KeyAuth: the export file is uploaded
 * as the body and answered with a preview; a start with each KeyAuth level mapped to a plan
 * runs it in batches, resumable after a failure.
 */
export const importLimits = {
  /** The largest export accepted, in bytes (64 MiB: 200,000 users with long HWIDs fit). */
  maxFileBytes: 64 * 1024 * 1024,
  /** Conflicts and unreadable rows in an answer; the counts are exact. */
  problemsAnswered: 100,
  /** Conflicts and unreadable rows kept with an import. */
  problemsKept: 1000,
} as const;

export const IMPORT_NOT_FOUND = 'Import not found';
export const IMPORT_UPLOAD_MEDIA_TYPE =
  'Upload the export file\u2019s bytes as the body, with Content-Type: application/octet-stream';

export const importSourceSchema = z.enum(['keyauth']);
export const importKindSchema = z.enum(['users', 'keys']);
export type ImportKind = z.infer<typeof importKindSchema>;
export const importStatusSchema = z.enum(['previewed', 'running', 'done', 'failed']);
export type ImportStatus = z.infer<typeof importStatusSchema>;

/** POST /api/applications/:id/imports?source=keyauth&kind=users|keys */
export const createImportQuerySchema = z.object({
  source: importSourceSchema,
  kind: importKindSchema,
});
export type CreateImportQuery = z.infer<typeof createImportQuerySchema>;

export const importParamsSchema = z.object({
  id: applicationIdSchema,
  importId: z.uuid('Invalid import id'),
});

const importRowProblemSchema = z.object({
  rowNumber: z.number().int().positive(),
  reason: z.string(),
});

/** A preview, and the progress of a running or finished import. */
export const importProgressSchema = z
  .object({
    id: z.uuid(),
    source: importSourceSchema,
    kind: importKindSchema,
    /** Which of KeyAuth's files it was: panel-json, seller-api-json, table-csv, key-list-text. */
    format: z.string(),
    status: importStatusSchema,
    /** Rows in the file, readable or not. */
    totalRows: z.number().int().min(0),
    readableRows: z.number().int().min(0),
    /** Usernames the application already has, or keys it already has: skipped when run. */
    conflictRows: z.number().int().min(0),
    unreadableRows: z.number().int().min(0),
    /** Readable rows handled so far, of `readableRows`. */
    doneRows: z.number().int().min(0),
    createdRows: z.number().int().min(0),
    skippedRows: z.number().int().min(0),
    /** The first 100; `conflictRows` is the exact count. */
    conflicts: z.array(importRowProblemSchema),
    /** The first 100; `unreadableRows` is the exact count. */
    unreadable: z.array(importRowProblemSchema),
    /** The distinct KeyAuth levels in the file. */
    levels: z.array(z.string()),
    levelPlans: z.record(z.string(), z.uuid()),
    error: z.string().nullable(),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ImportProgress', description: 'A KeyAuth import: its preview and progress.' });
export type ImportProgress = z.infer<typeof importProgressSchema>;

const levelSchema = z.string().refine(isCleanText, { message: CLEAN_TEXT_MESSAGE }).max(200);

/** POST /api/applications/:id/imports/:importId/start */
export const startImportRequestSchema = z.object({
  /** KeyAuth level -> plan id of the application. Keys need every level mapped. */
  levelPlans: z
    .record(levelSchema, z.uuid('Invalid plan id'))
    .default({})
    .refine((plans) => Object.keys(plans).length <= 1000, 'At most 1000 levels'),
});
export type StartImportRequest = z.input<typeof startImportRequestSchema>;
