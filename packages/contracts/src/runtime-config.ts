import { z } from 'zod';

/**
 * GET /api/config: what the console needs to know at run time, so that one console
 * build serves every deployment (emulator locally, a real Firebase project in production).
 */
export const runtimeConfigSchema = z
  .object({
    firebase: z.object({
      apiKey: z.string(),
      authDomain: z.string(),
      projectId: z.string(),
      appId: z.string().optional(),
    }),
    /** Base URL of the Firebase Auth emulator, e.g. http://127.0.0.1:9099; null in production. */
    authEmulatorUrl: z.string().nullable(),
    /** END_USER_PASSWORD_MIN_LENGTH, so the user dialogs can say and check it before sending. */
    endUserPasswordMinLength: z.number().int().min(1),
    /**
     * Where end-user mail goes: an SMTP server, the local mailbox (development without
     * SMTP_URL), or nowhere (production without SMTP_URL: the mail features are off).
     */
    mailDelivery: z.enum(['smtp', 'mailbox', 'off']),
  })
  .meta({
    id: 'RuntimeConfig',
    description: 'What the console needs at run time (public: no secrets).',
  });
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
