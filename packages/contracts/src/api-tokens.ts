import { z } from 'zod';
import { CLEAN_TEXT_MESSAGE, isCleanText } from './clean-text.ts';

/**
 * API tokens of the management API: what shops and bots call with, instead of a signed-in
 * browser. A token never exceeds its creator: each call needs the token's scope and the
 * creator's own permission for the same act, checked again at the time of the call.
 */
export const apiTokenScopes = [
  'applications:read',
  'users:read',
  'users:write',
  'licenses:read',
  'licenses:write',
  'blacklist:read',
  'blacklist:write',
  'activity:read',
  'webhooks:read',
  'webhooks:write',
  'orders:read',
] as const;
export const apiTokenScopeSchema = z.enum(apiTokenScopes, {
  error: (issue) => `Unknown scope: ${String(issue.input)}`,
});
export type ApiTokenScope = z.infer<typeof apiTokenScopeSchema>;

export const apiTokenScopeDescriptions: Record<ApiTokenScope, string> = {
  'applications:read': 'List applications, read their settings and statistics',
  'users:read': 'List and read end users, their subscriptions and devices',
  'users:write': 'Create, edit, pause, extend and delete end users',
  'licenses:read': 'List licence keys and plans',
  'licenses:write': 'Generate, ban, unban, delete and export licence keys',
  'blacklist:read': 'List blacklist entries',
  'blacklist:write': 'Add and remove blacklist entries',
  'activity:read': 'Read the activity log and the account\u2019s audit trail',
  'webhooks:read': 'List webhooks',
  'webhooks:write': 'Create, edit and delete webhooks',
  'orders:read': 'List the orders shops sent and the keys they minted',
};

export const apiTokenLimits = {
  name: 100,
  applications: 100,
  allowedIps: 50,
  /** `lk_` + 32 random base62 characters (190 bits) + a 6-character CRC-32 checksum. */
  tokenLength: 41,
  /** What the list shows of a token: `lk_` and the first eight random characters. */
  prefixLength: 11,
} as const;

/** A management token's whole text, as secret scanners and the server recognise it. */
export const API_TOKEN_PATTERN = /^lk_[0-9A-Za-z]{38}$/;

export const API_TOKEN_NAME_REQUIRED = 'Please enter a name for the token';
export const API_TOKEN_SCOPES_REQUIRED = 'Please choose at least one scope';
export const API_TOKEN_NOT_FOUND = 'API token not found';
export const API_TOKEN_EXPIRY_PAST = 'The expiry must be in the future';
export const API_TOKEN_IP_INVALID = (entry: string) =>
  `${entry} is not an IP address or a CIDR range`;

/** One allowlist entry: an IPv4 or IPv6 address, or a CIDR range of either. */
export const allowedIpSchema = z
  .string('Each allowed IP must be text')
  .trim()
  .refine(
    (entry) => z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]).safeParse(entry).success,
    { error: (issue) => API_TOKEN_IP_INVALID(String(issue.input)) },
  );

/** An API token as the console lists it: never its text, only its prefix. */
export const apiTokenSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(apiTokenScopeSchema),
    /** Null: every application of the creator, present and future. */
    applicationIds: z.array(z.number().int()).nullable(),
    expiresAt: z.iso.datetime().nullable(),
    /** Null: any address. */
    allowedIps: z.array(z.string()).nullable(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    lastUsedIp: z.string().nullable(),
  })
  .meta({ id: 'ApiToken', description: 'A management API token (its text is shown once).' });
export type ApiToken = z.infer<typeof apiTokenSchema>;
export const apiTokenListSchema = z.array(apiTokenSchema);

/** POST /api/api-tokens: the token's text travels only in this answer. */
export const createdApiTokenSchema = apiTokenSchema
  .extend({ token: z.string() })
  .meta({ id: 'CreatedApiToken', description: 'A new token, with its text: shown once.' });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

export const createApiTokenRequestSchema = z
  .object({
    name: z
      .string(API_TOKEN_NAME_REQUIRED)
      .refine(isCleanText, { message: CLEAN_TEXT_MESSAGE, abort: true })
      .trim()
      .min(1, API_TOKEN_NAME_REQUIRED)
      .max(apiTokenLimits.name, `Name must be at most ${apiTokenLimits.name} characters`),
    scopes: z
      .array(apiTokenScopeSchema, API_TOKEN_SCOPES_REQUIRED)
      .min(1, API_TOKEN_SCOPES_REQUIRED)
      .transform((scopes) => apiTokenScopes.filter((scope) => scopes.includes(scope))),
    applicationIds: z
      .array(z.number().int().positive('Invalid application id'))
      .min(1, 'Choose at least one application, or leave the restriction out')
      .max(apiTokenLimits.applications)
      .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
      .nullish()
      .transform((ids) => ids ?? null),
    expiresAt: z.iso
      .datetime({ offset: true, message: 'The expiry must be an ISO 8601 date and time' })
      .nullish()
      .transform((value) => (value ? new Date(value) : null)),
    allowedIps: z
      .array(allowedIpSchema)
      .min(1, 'List at least one address, or leave the allowlist out')
      .max(apiTokenLimits.allowedIps, `At most ${apiTokenLimits.allowedIps} allowed IPs`)
      .transform((entries) => [...new Set(entries)])
      .nullish()
      .transform((entries) => entries ?? null),
  })
  .meta({ id: 'CreateApiTokenRequest' });
export type CreateApiTokenRequest = z.input<typeof createApiTokenRequestSchema>;

export const apiTokenParamsSchema = z.object({
  id: z.uuid('Invalid token id'),
});
