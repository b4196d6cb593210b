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

const formField = (description: string) => z.string().optional().meta({ description });

/**
 * The form fields of a KeyAuth request (the body, form-encoded, or the query): every request
 * names `type`, `name` and `ownerid`; the others belong to the types that read them.
 */
export const keyauthFormSchema = z
  .object({
    type: formField('The request type (init, login, check, ...).'),
    name: formField('The application\u2019s KeyAuth name.'),
    ownerid: formField('The application\u2019s KeyAuth owner id (10 characters).'),
    sessionid: formField('What init answered; every later request sends it.'),
    ver: formField('init: the program\u2019s version.'),
    hash: formField('init: the program\u2019s checksum (not checked).'),
    enckey: formField('init: the key API 1.2 signs later answers with (with the secret).'),
    username: formField('register, login, upgrade, forgot.'),
    pass: formField('register, login.'),
    key: formField('register, license, upgrade: a licence key.'),
    email: formField('register, forgot.'),
    hwid: formField('register, login, license, checkblacklist, ban: trimmed of white space.'),
    newUsername: formField('changeUsername.'),
    varid: formField('var: an application variable.'),
    var: formField('getvar, setvar: the user\u2019s variable.'),
    data: formField('setvar: its value.'),
    reason: formField('ban.'),
    message: formField('log.'),
    pcuser: formField('log.'),
    fileid: formField('file: a file id.'),
  })
  .meta({ id: 'KeyauthForm' });

const numberString = z
  .string()
  .meta({ description: 'A number, as a string (as KeyAuth sends it).' });

/** KeyAuth's `appinfo`. */
export const keyauthAppInfoSchema = z.object({
  numUsers: numberString,
  numOnlineUsers: numberString,
  numKeys: numberString,
  version: z.string(),
  customerPanelLink: z.string(),
});

/** KeyAuth's `info` of a logged-in user. */
export const keyauthUserInfoSchema = z.object({
  username: z.string(),
  subscriptions: z.array(
    z.object({
      subscription: z.string(),
      key: z.null(),
      expiry: numberString,
      timeleft: z.number().int(),
      level: numberString,
    }),
  ),
  ip: z.string(),
  hwid: z.string().nullable(),
  createdate: numberString,
  lastlogin: numberString,
});

/**
 * Every answer of the KeyAuth-compatible API, as PHP's json_encode writes it (ASCII only,
 * `/` escaped): `success` and `message` always, `ownerid` echoed once the request named one,
 * `code` 68 and a `nonce` on success, and each type's own fields.
 */
export const keyauthAnswerSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: z.literal(68).optional(),
    nonce: z.string().optional(),
    ownerid: z.string().optional(),
    sessionid: z.string().optional().meta({ description: 'init.' }),
    newSession: z.boolean().optional().meta({ description: 'init.' }),
    appinfo: keyauthAppInfoSchema.optional().meta({ description: 'init, fetchStats.' }),
    download: z.string().optional().meta({ description: 'init refused as invalidver.' }),
    info: keyauthUserInfoSchema.optional().meta({ description: 'register, login, license.' }),
    response: z.string().optional().meta({ description: 'getvar: the value.' }),
    contents: z.string().optional().meta({ description: 'file: the bytes as hex.' }),
    users: z
      .array(z.object({ credential: z.string() }))
      .optional()
      .meta({ description: 'fetchOnline: masked names.' }),
  })
  .meta({ id: 'KeyauthAnswer' });
