import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';

/**
 * The four client samples of /integration. The order is the order of the /integration tabs;
 * the first is the default of /code-editor.
 */
export const sampleLanguages = ['csharp', 'python', 'nodejs', 'cpp'] as const;
export const sampleLanguageSchema = z.enum(sampleLanguages, {
  error: (issue) => `Unknown language: ${String(issue.input)}`,
});
export type SampleLanguage = z.infer<typeof sampleLanguageSchema>;

export const sampleLanguageCatalogue: Record<
  SampleLanguage,
  { label: string; filename: string; highlight: 'csharp' | 'python' | 'javascript' | 'cpp' }
> = {
  csharp: { label: 'C# WinForms', filename: 'LatchkeyClient.cs', highlight: 'csharp' },
  python: { label: 'Python Tkinter', filename: 'latchkey_client.py', highlight: 'python' },
  nodejs: { label: 'Node.js console', filename: 'latchkey-client.mjs', highlight: 'javascript' },
  cpp: { label: 'C++ console', filename: 'latchkey_client.cpp', highlight: 'cpp' },
};

/**
 * The placeholders a template holds, each as the whole of a quoted string literal (`"…"` or
 * `'…'`); rendering replaces the literal, quotes included, with one properly escaped
 * double-quoted literal. A template shown with no application (the /code-editor default)
 * keeps them as they are.
 */
export const samplePlaceholders = {
  apiKey: 'YOUR_API_KEY',
  baseUrl: 'YOUR_LATCHKEY_URL',
  version: 'YOUR_APP_VERSION',
  signingPublicKey: 'YOUR_SIGNING_PUBLIC_KEY',
} as const;

/** An edited sample is source text; a megabyte is far beyond any real one. */
export const SAMPLE_CODE_MAX_LENGTH = 1_000_000;

/**
 * ≥ any request body carrying a valid sample (JSON escapes a character as at most six bytes,
 * `\u0001`), so the PUT route's own body limit never refuses a sample the schema accepts: the
 * server-wide default (64 KB) is smaller than the C# sample itself.
 */
export const SAMPLE_BODY_LIMIT_BYTES = SAMPLE_CODE_MAX_LENGTH * 6 + 4096;

export const sampleParamsSchema = z.object({
  id: applicationIdSchema,
  language: sampleLanguageSchema,
});

export const defaultSampleParamsSchema = z.object({ language: sampleLanguageSchema });

export const sampleSchema = z
  .object({
    language: sampleLanguageSchema,
    filename: z.string(),
    code: z.string(),
    /**
     * The Latchkey address the rendered code calls (PUBLIC_ORIGIN, else the origin the request
     * reached): only the server knows it. Null for the bare template, which keeps its placeholder.
     */
    baseUrl: z.string().nullable(),
    /** True when this is the account's saved edit rather than the rendered default. */
    isCustomized: z.boolean(),
    /** When the saved edit was last changed; null for the default. */
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'Sample',
    description: 'A client sample: rendered for an application, or the bare template.',
  });
export type Sample = z.infer<typeof sampleSchema>;

export const saveSampleRequestSchema = z.object({
  code: z
    .string()
    .max(SAMPLE_CODE_MAX_LENGTH, `code: at most ${SAMPLE_CODE_MAX_LENGTH} characters`),
});
export type SaveSampleRequest = z.infer<typeof saveSampleRequestSchema>;
