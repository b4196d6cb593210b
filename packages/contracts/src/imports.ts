import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { CLEAN_TEXT_MESSAGE, isCleanText } from './clean-text.ts';

/**
 * Importing an application from KeyAuth, one export file at a time: its users, licence keys,
 * subscriptions (as plans), variables, users' variables, blacklist and files, and the
 * application's own KeyAuth settings. The file is uploaded as the body and answered with a
 * preview; a start (with each KeyAuth level mapped to a plan, where the kind has levels) runs
 * it in batches, resumable after a failure.
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
/**
 * What one file holds. `users` and `keys` become end users and licence keys; `subscriptions`
 * become plans (one per level); `variables` become application variables; `user-variables` become end users'
 * variables (import the users first); `blacklist` becomes blacklist entries of the
 * application; `files` lists the files to upload again (KeyAuth keeps only a URL, which the
 * server does not fetch); `application` is KeyAuth's `apps` table, for the application's
 * KeyAuth owner id, name and secret.
 */
export const importKinds = [
  'users',
  'keys',
  'subscriptions',
  'variables',
  'user-variables',
  'blacklist',
  'files',
  'application',
] as const;
export const importKindSchema = z.enum(importKinds);
export type ImportKind = z.infer<typeof importKindSchema>;
/**
 * The kinds a management API token may import: its scopes cover end users and licence keys,
 * not plans, variables, the blacklist or an application's KeyAuth secret.
 */
export const tokenImportKindSchema = z.enum(['users', 'keys']);
export const IMPORT_KIND_NEEDS_CONSOLE =
  'Only users and keys are imported with an API token: import this kind in the console';
export const importStatusSchema = z.enum(['previewed', 'running', 'done', 'failed']);
export type ImportStatus = z.infer<typeof importStatusSchema>;

/** POST /api/manage/v1/applications/:id/imports?source=keyauth&kind=users|keys */
export const createImportQuerySchema = z.object({
  source: importSourceSchema,
  kind: tokenImportKindSchema,
});
export type CreateImportQuery = z.infer<typeof createImportQuerySchema>;

/** POST /api/applications/:id/imports?source=keyauth&kind=… (every kind) */
export const createOwnerImportQuerySchema = z.object({
  source: importSourceSchema,
  kind: importKindSchema,
});
export type CreateOwnerImportQuery = z.infer<typeof createOwnerImportQuerySchema>;

export const importParamsSchema = z.object({
  id: applicationIdSchema,
  importId: z.uuid('Invalid import id'),
});

const importRowProblemSchema = z.object({
  rowNumber: z.number().int().positive(),
  reason: z.string(),
});

/**
 * A KeyAuth file the import could not bring over: KeyAuth keeps a URL, Latchkey the bytes,
 * and the server does not fetch URLs read from an uploaded file, so the owner uploads it again.
 */
export const importFileToUploadSchema = z.object({
  rowNumber: z.number().int().positive(),
  /**
   * KeyAuth's file id, which its programs download by: in the program it becomes the id of the
   * file uploaded again.
   */
  keyauthFileId: z.string(),
  /** Its name in KeyAuth (or its URL's last segment), the name to upload it under. */
  name: z.string(),
  /** KeyAuth's `authed`: only a program with a live session may download it. */
  requiresSession: z.boolean(),
});
export type ImportFileToUpload = z.infer<typeof importFileToUploadSchema>;

/**
 * The application's KeyAuth settings an import found in its file (the `app` column of a
 * users or keys export holds the secret; KeyAuth's `apps` table holds all three), and what
 * became of them. The secret itself is never answered, only whether there is one.
 * `pending`: not started yet; `written`: written to the application (compatibility is not
 * turned on by the import); `unchanged`: the application already had them; `refused`: not
 * written, `problem` says why.
 */
export const importKeyauthSettingsSchema = z.object({
  ownerId: z.string().nullable(),
  name: z.string().nullable(),
  hasSecret: z.boolean(),
  outcome: z.enum(['pending', 'written', 'unchanged', 'refused']),
  /** Why they were or will be refused, in words for the owner; null when there is no problem. */
  problem: z.string().nullable(),
});
export type ImportKeyauthSettings = z.infer<typeof importKeyauthSettingsSchema>;

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
    /**
     * Rows that will be skipped when run, each with its reason: a username, key, variable,
     * blacklist entry or plan the application already has, a user variable of a user it does
     * not have, and every file (to upload again: `filesToUpload`).
     */
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
    /**
     * KeyAuth level -> plan id: as the last start gave it; before the start, the plans earlier
     * imports of the application mapped these levels to (a suggestion). A subscriptions import
     * ends with every level and subscription name it mapped.
     */
    levelPlans: z.record(z.string(), z.uuid()),
    /** A files import's files, the first 100 (`readableRows` counts them); empty otherwise. */
    filesToUpload: z.array(importFileToUploadSchema),
    /** The application's KeyAuth settings the file holds, if it holds any. */
    keyauthSettings: importKeyauthSettingsSchema.nullable(),
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
  /**
   * KeyAuth level -> plan id of the application. Keys need every level mapped; a
   * subscriptions import makes a plan for each level not mapped here.
   */
  levelPlans: z
    .record(levelSchema, z.uuid('Invalid plan id'))
    .default({})
    .refine((plans) => Object.keys(plans).length <= 1000, 'At most 1000 levels'),
});
export type StartImportRequest = z.input<typeof startImportRequestSchema>;
