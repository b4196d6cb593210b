import { z } from 'zod';

/**
 * The /code-editor's three reference documents. Each account has its own copy of each, stored
 * in the database: documents to read and edit, never files of the server and never executed.
 * No other name exists.
 */
export const codeFileNames = ['authentication.ts', 'permissions.ts', 'api-routes.ts'] as const;
export const codeFileNameSchema = z.enum(codeFileNames);
export type CodeFileName = z.infer<typeof codeFileNameSchema>;

/** A document's text is bounded in UTF-8 bytes: 200 KiB is many times any real reference. */
export const CODE_FILE_MAX_BYTES = 200 * 1024;
/** Versions kept per document, the current one included; older ones are dropped on save. */
export const CODE_FILE_HISTORY_LIMIT = 50;

export const codeFileMessages = {
  notFound: 'File not found',
  versionNotFound: 'Version not found',
  tooLarge: `a file may be at most ${CODE_FILE_MAX_BYTES / 1024} KB (${CODE_FILE_MAX_BYTES} bytes of UTF-8)`,
  staleVersion:
    'This file was changed elsewhere since you opened it. Reload it to see the latest version, then save your changes again.',
} as const;

const utf8 = new TextEncoder();
export function utf8ByteLength(text: string): number {
  return utf8.encode(text).length;
}

/**
 * UTF-8 never takes fewer bytes than UTF-16 code units, so an over-long string is refused
 * from its length alone, without encoding it.
 */
export function isWithinCodeFileLimit(content: string): boolean {
  return content.length <= CODE_FILE_MAX_BYTES && utf8ByteLength(content) <= CODE_FILE_MAX_BYTES;
}

/**
 * ≥ any request body carrying a valid document: JSON escapes a byte as at most six
 * (`\u0001`), plus room for the other fields. The PUT route's body limit, so an over-long
 * document gets the 400 above, and only a body no valid request could have gets a 413.
 */
export const CODE_FILE_BODY_LIMIT_BYTES = CODE_FILE_MAX_BYTES * 6 + 4096;

/** Path parameter: any name is accepted here, and one outside the catalogue is a 404. */
export const codeFileParamsSchema = z.object({
  name: z.string().max(100, 'name: at most 100 characters'),
});

export const codeFileVersionParamsSchema = codeFileParamsSchema.extend({
  versionId: z.uuid('Invalid version id'),
});

/** A code file: id, name, content, language, lastModified, canEdit; plus its version. */
export const codeFileSummarySchema = z.object({
  /** The file's name: unique within the account, so it is the id. */
  id: codeFileNameSchema,
  name: codeFileNameSchema,
  language: z.literal('typescript'),
  lastModified: z.iso.datetime(),
  /** Whether the asking account may save it (the owner, or edit_code). */
  canEdit: z.boolean(),
  /** Increases by one with every save or restore; the first (seeded) version is 1. */
  version: z.int().min(1),
});
export type CodeFileSummary = z.infer<typeof codeFileSummarySchema>;

export const codeFileSchema = codeFileSummarySchema.extend({ content: z.string() });
export type CodeFile = z.infer<typeof codeFileSchema>;

export const codeFileListSchema = z.array(codeFileSummarySchema);

/** PUT /api/code-files/:name. */
export const saveCodeFileRequestSchema = z.object({
  content: z
    .string('content must be text')
    .refine(isWithinCodeFileLimit, codeFileMessages.tooLarge),
  /**
   * The version the edit started from. When given and no longer current, the save is a 409:
   * someone saved in between, and their text must not be overwritten unseen.
   */
  baseVersion: z.int('baseVersion must be a whole number').min(1).optional(),
});
export type SaveCodeFileRequest = z.infer<typeof saveCodeFileRequestSchema>;

/** One entry of a document's history, newest first; the content is fetched by restoring. */
export const codeFileVersionSchema = z.object({
  id: z.uuid(),
  version: z.int().min(1),
  createdAt: z.iso.datetime(),
  /** Who saved it (e-mail at the time); null for the seeded first version. */
  savedBy: z.string().nullable(),
  /** What made it: the seed, a save, or a restore of an earlier version. */
  origin: z.enum(['seed', 'save', 'restore']),
  /** For a restore: the version number it brought back. */
  restoredFrom: z.int().nullable(),
  sizeBytes: z.int().min(0),
  isCurrent: z.boolean(),
});
export type CodeFileVersion = z.infer<typeof codeFileVersionSchema>;

export const codeFileVersionListSchema = z.object({
  versions: z.array(codeFileVersionSchema),
  /** CODE_FILE_HISTORY_LIMIT, so the console can say how much is kept. */
  limit: z.int(),
});
export type CodeFileVersionList = z.infer<typeof codeFileVersionListSchema>;
