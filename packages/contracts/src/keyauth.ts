import { z } from 'zod';

/**
 * The KeyAuth-compatible client API: what an application needs so that programs built on
 * KeyAuth's own client libraries (API 1.2 and 1.3) reach it unchanged, and the limits of its
 * requests. Answers follow KeyAuth's shapes, not v1's; docs/keyauth-migration.md has the table.
 */
export const keyauthLimits = {
  ownerIdLength: 10,
  name: 100,
  /** Hours a session opened by `init` lives. */
  minSessionHours: 1,
  maxSessionHours: 720,
  defaultSessionHours: 6,
  /** A `file` answer carries the bytes as hex in JSON: larger files answer a pointer to v1. */
  maxInlineFileBytes: 5 * 1024 * 1024,
  /** `log` lines and `ban` reasons, as KeyAuth bounds them. */
  logMessage: 2000,
  banReason: 99,
} as const;

export const KEYAUTH_OWNER_ID_PATTERN = /^[A-Za-z0-9]{10}$/;
export const KEYAUTH_SECRET_PATTERN = /^[0-9a-f]{64}$/;

export const KEYAUTH_NAME_TAKEN = 'Another application already uses this KeyAuth owner id and name';
export const KEYAUTH_NEEDS_IDENTITY = 'KeyAuth compatibility needs an owner id and a name';

const nullableTrimmed = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() || null : value),
    schema.nullable().optional(),
  );

/** The KeyAuth settings of PUT /api/applications/:id (each optional, like the rest). */
export const keyauthSettingsFields = {
  keyauthCompatibility: z
    .boolean({ error: 'keyauthCompatibility must be true or false' })
    .optional(),
  keyauthOwnerId: nullableTrimmed(
    z.string().regex(KEYAUTH_OWNER_ID_PATTERN, 'KeyAuth owner id must be 10 letters or digits'),
  ),
  keyauthName: nullableTrimmed(
    z
      .string()
      .max(keyauthLimits.name, `KeyAuth name must be at most ${keyauthLimits.name} characters`),
  ),
  /** An imported 1.2 secret; absent keeps the current one (one is generated when none is set). */
  keyauthSecret: nullableTrimmed(
    z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(z.string().regex(KEYAUTH_SECRET_PATTERN, 'KeyAuth secret must be 64 hex characters')),
  ),
  keyauthSessionHours: z
    .number({ error: 'Session hours must be a whole number' })
    .int('Session hours must be a whole number')
    .min(
      keyauthLimits.minSessionHours,
      `Session hours must be at least ${keyauthLimits.minSessionHours}`,
    )
    .max(
      keyauthLimits.maxSessionHours,
      `Session hours must be at most ${keyauthLimits.maxSessionHours}`,
    )
    .optional(),
};

/** The request types the compatible API answers (KeyAuth's `type` field). */
export const keyauthRequestTypes = [
  'init',
  'register',
  'login',
  'license',
  'upgrade',
  'check',
  'logout',
  'changeUsername',
  'var',
  'getvar',
  'setvar',
  'checkblacklist',
  'ban',
  'log',
  'file',
  'fetchStats',
  'fetchOnline',
  'forgot',
] as const;
export type KeyauthRequestType = (typeof keyauthRequestTypes)[number];

/** KeyAuth requests Latchkey does not serve; each answers KeyAuth's failure shape saying so. */
export const keyauthUnsupportedTypes = [
  'chatget',
  'chatsend',
  'webhook',
  '2faenable',
  '2fadisable',
] as const;
