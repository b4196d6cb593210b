import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { CLEAN_TEXT_MESSAGE, isCleanText } from './clean-text.ts';
import { clientApiCodeSchema } from './client-api.ts';
import type { ClientCallEntry } from './client-call-entry.ts';

/**
 * Downloadable files of an application: installers and updates its programs fetch through a
 * short-lived signed URL (POST /api/v1/file). One of them may be the application's current
 * release, which a VERSION_MISMATCH answer offers as the update.
 */
export const appFileLimits = {
  name: 255,
  version: 64,
  platform: 64,
  /** The default of MAX_UPLOAD_MB. */
  defaultMaxUploadMb: 512,
} as const;

export const APP_FILE_NOT_FOUND = 'File not found';
/** Why a file that requires a session cannot be an application's current release. */
export const APP_FILE_RELEASE_REQUIRES_SESSION =
  'A release that requires a session cannot be the current release: a program on an older version cannot sign in to download it. Upload it again without requiring a session.';
export const APP_FILE_NAME_REQUIRED = 'Please enter a file name';
export const APP_FILE_VERSION_REQUIRED = 'Please enter a version';
export const APP_FILE_UPLOAD_MEDIA_TYPE =
  'Upload the file\u2019s bytes as the body, with Content-Type: application/octet-stream';

/** A file as the owner API returns it (complete uploads only). */
export const appFileSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    version: z.string(),
    platform: z.string().nullable(),
    /** Bytes. */
    size: z.number().int().min(0),
    /** Hex SHA-256 of the whole file. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** POST /api/v1/file answers only a live session's holder (the default). */
    requiresSession: z.boolean(),
    /** Download URLs issued (a resumed download is one). */
    downloadCount: z.number().int().min(0),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AppFile', description: 'A downloadable file of an application.' });
export type AppFile = z.infer<typeof appFileSchema>;
export const appFileListSchema = z.array(appFileSchema);

const text = (label: string, max: number, requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .refine(isCleanText, { message: CLEAN_TEXT_MESSAGE, abort: true })
    .trim()
    .min(1, requiredMessage)
    .max(max, `${label} must be at most ${max} characters`);

/**
 * POST /api/applications/:id/files: the body is the file's bytes (application/octet-stream),
 * its description travels in the query string.
 */
export const uploadAppFileQuerySchema = z.object({
  name: text('Name', appFileLimits.name, APP_FILE_NAME_REQUIRED),
  version: text('Version', appFileLimits.version, APP_FILE_VERSION_REQUIRED),
  platform: z
    .string()
    .refine(isCleanText, { message: CLEAN_TEXT_MESSAGE, abort: true })
    .trim()
    .max(appFileLimits.platform, `Platform must be at most ${appFileLimits.platform} characters`)
    .optional()
    .transform((value) => value || null),
  requiresSession: z
    .enum(['true', 'false'], { error: 'requiresSession must be true or false' })
    .optional()
    .transform((value) => value !== 'false'),
});
export type UploadAppFileQuery = z.input<typeof uploadAppFileQuerySchema>;
export type UploadAppFileInput = z.output<typeof uploadAppFileQuerySchema>;

/** Path parameters of /api/applications/:id/files/:fileId. */
export const appFileParamsSchema = z.object({
  id: applicationIdSchema,
  fileId: z.uuid('Invalid file id'),
});

/** GET /api/v1/downloads/:token: the token of a URL that POST /api/v1/file answered. */
export const downloadParamsSchema = z.object({
  token: z.string().max(100).meta({
    description: 'Only as POST /api/v1/file answered it, inside its url.',
  }),
});

/** How long a download URL that POST /api/v1/file answers stays valid. */
export const DOWNLOAD_URL_TTL_SECONDS = 300;

/** POST /api/v1/file: a file's download URL, for a live session unless the file needs none. */
export const clientFileRequestSchema = z.object({
  file_id: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'file_id is required' : 'file_id must be a string',
    })
    .max(64, 'file_id must be at most 64 characters'),
  session_token: z
    .string({ error: 'session_token must be a string' })
    .max(256, 'session_token must be at most 256 characters')
    .nullish()
    .transform((value) => value ?? null),
});
export type ClientFileRequest = z.input<typeof clientFileRequestSchema>;
export type ClientFileInput = z.output<typeof clientFileRequestSchema>;

export const clientFileResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
    /** OK only: where to GET the bytes (no API key; Range supported) until expires_at. */
    url: z.url().optional(),
    size: z.number().int().min(0).optional(),
    /** Hex SHA-256 of the whole file: check it before using what was downloaded. */
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    expires_at: z.iso.datetime().optional(),
  })
  .meta({
    id: 'ClientFileResponse',
    description:
      'The answer of file: outcomes are HTTP 200 with success and a code; on success a signed, short-lived download URL with the size and SHA-256.',
  });
export type ClientFileResponse = z.infer<typeof clientFileResponseSchema>;

/** The client API's call for the application's files. */
export const fileClientCalls = {
  issueFileUrl: {
    method: 'POST',
    path: '/api/v1/file',
    summary:
      'A 5-minute download URL for one of the application\u2019s files, with its size and SHA-256; a live session unless the file needs none.',
    request: clientFileRequestSchema,
    response: clientFileResponseSchema,
    brief: 'file_id, session_token?: a 5-minute download URL, size and SHA-256',
  },
} as const satisfies Record<string, ClientCallEntry>;
