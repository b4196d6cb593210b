import { z } from 'zod';
import { activityEventLabels, clientActivityEventNames } from './activity.ts';
import { applicationIdSchema } from './applications.ts';
import { pageQueryFields } from './paging.ts';

/**
 * Webhooks: the client API's activity events, plus `session_end` (a client session ended by
 * the client, the owner, the user's standing, the session limit or silence), which the landing
 * page's promise of logout notifications needs.
 */
export const webhookEventNames = [...clientActivityEventNames, 'session_end'] as const;
export const webhookEventSchema = z.enum(webhookEventNames, {
  error: (issue) => `Unknown event: ${String(issue.input)}`,
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

// The owner's bulk changes are in the activity log, but a webhook tells the vendor's systems
// what end users and their programs did.
const { owner_bulk_action: _ownerOnly, ...clientActivityEventLabels } = activityEventLabels;
export const webhookEventLabels: Record<WebhookEvent, string> = {
  ...clientActivityEventLabels,
  session_end: 'Session Ended',
};

/** `auto`: Discord for discord(app).com webhook URLs, Slack for hooks.slack.com, else JSON. */
export const webhookFormats = ['auto', 'discord', 'slack', 'json'] as const;
export const webhookFormatSchema = z.enum(webhookFormats);
export type WebhookFormat = z.infer<typeof webhookFormatSchema>;

export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** A row of the table shows at most this many event badges, then '+N more'. */
export const WEBHOOK_EVENT_BADGE_LIMIT = 3;

export const webhookLimits = { url: 2048, secret: 256 } as const;

export const WEBHOOK_URL_REQUIRED = 'Please provide a webhook URL';
export const WEBHOOK_NOT_FOUND = 'Webhook not found';

/**
 * The canonical event every delivery carries, as the JSON format sends it (Standard
 * Webhooks body `{ type, timestamp, data }`); Discord and Slack messages are rendered from it.
 */
export const webhookEventPayloadSchema = z.object({
  type: webhookEventSchema,
  timestamp: z.iso.datetime(),
  data: z.object({
    application: z.object({ id: z.number().int(), name: z.string() }),
    user: z.object({ id: z.uuid().nullable(), username: z.string().nullable() }),
    success: z.boolean(),
    ipAddress: z.string().nullable(),
    hwid: z.string().nullable(),
    version: z.string().nullable(),
    /** The message the client was answered with (refusals), or null. */
    message: z.string().nullable(),
    activityLogId: z.number().int().nullable(),
    /** session_end only: client, owner, standing, replaced or idle. */
    sessionEndReason: z.string().optional(),
    /** True for POST /api/test-webhook's sample events. */
    isTest: z.boolean().optional(),
  }),
});
export type WebhookEventPayload = z.infer<typeof webhookEventPayloadSchema>;

/** A webhook as the owner API returns it. The secret appears only masked (`whsec_…abcd`). */
export const webhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    secret: z.string(),
    events: z.array(webhookEventSchema),
    isActive: z.boolean(),
    applicationId: z.number().int().nullable(),
    application: z.object({ name: z.string() }).nullable(),
    format: webhookFormatSchema,
    /** Why the engine disabled it (410 Gone, five days of failures); null otherwise. */
    disabledReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Webhook', description: 'A webhook. Its secret appears only masked.' });
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookListSchema = z.array(webhookSchema);

const webhookUrl = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim() : value),
  z
    .string({ error: WEBHOOK_URL_REQUIRED })
    .min(1, WEBHOOK_URL_REQUIRED)
    .max(webhookLimits.url, `URL must be at most ${webhookLimits.url} characters`)
    .pipe(z.url({ protocol: /^https?$/, error: 'Please enter a valid http(s) URL' })),
);
const webhookSecret = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim() || null : value),
  z
    .string()
    .max(webhookLimits.secret, `Secret must be at most ${webhookLimits.secret} characters`)
    .nullish(),
);
/** An absent, null, '' or 'all' applicationId means every application of the owner. */
const webhookApplicationId = z.preprocess(
  (value) =>
    value === null || value === '' || value === 'all'
      ? null
      : typeof value === 'number'
        ? String(value)
        : value,
  applicationIdSchema.nullish(),
);

/**
 * POST /api/webhooks. Only `url` is required; no secret means one is generated (`whsec_…`) so
 * every JSON delivery is signed. Whether the URL's scheme and host are allowed (https, no
 * private networks) is decided by the server, which knows its mode.
 */
export const createWebhookRequestSchema = z.object({
  url: webhookUrl,
  secret: webhookSecret,
  events: z.array(webhookEventSchema).max(webhookEventNames.length).default([]),
  isActive: z.boolean().default(true),
  applicationId: webhookApplicationId,
  format: webhookFormatSchema.default('auto'),
});
export type CreateWebhookRequest = z.input<typeof createWebhookRequestSchema>;
export type CreateWebhookInput = z.output<typeof createWebhookRequestSchema>;

/** PUT /api/webhooks/:id: any subset; an absent or blank secret keeps the current one. */
export const updateWebhookRequestSchema = z.object({
  url: webhookUrl.optional(),
  secret: webhookSecret,
  events: z.array(webhookEventSchema).max(webhookEventNames.length).optional(),
  isActive: z.boolean().optional(),
  applicationId: webhookApplicationId,
  format: webhookFormatSchema.optional(),
});
export type UpdateWebhookRequest = z.input<typeof updateWebhookRequestSchema>;
export type UpdateWebhookInput = z.output<typeof updateWebhookRequestSchema>;

const positiveId = (label: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, `Invalid ${label}`)
    .transform(Number)
    .refine((id) => id <= 2_147_483_647, `Invalid ${label}`);

export const webhookParamsSchema = z.object({ id: positiveId('webhook id') });
export const webhookDeliveryParamsSchema = z.object({
  id: positiveId('webhook id'),
  deliveryId: z.uuid('Invalid delivery id'),
});

/** GET /api/webhooks/:id/secret: the full secret, for the owner only. */
export const webhookSecretResponseSchema = z
  .object({ secret: z.string() })
  .meta({ id: 'WebhookSecret' });
export type WebhookSecretResponse = z.infer<typeof webhookSecretResponseSchema>;

/** One entry of a webhook's delivery log (GET /api/webhooks/:id/deliveries, newest first). */
export const webhookDeliverySchema = z
  .object({
    id: z.uuid(),
    event: webhookEventSchema,
    status: z.enum(webhookDeliveryStatuses),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastDurationMs: z.number().int().nullable(),
    /** When a pending delivery is next tried; null once it succeeded or failed for good. */
    nextAttemptAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
    /**
     * An attempt is being sent right now (a dispatcher holds its claim): a manual retry is
     * refused (409) until it is done.
     */
    isSending: z.boolean(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.array(webhookDeliverySchema);

/** Paging of the delivery log: the answer is the array; the total is in X-Total-Count. */
export const webhookDeliveryListQuerySchema = z.object(pageQueryFields);

/** POST /api/test-webhook: a sample event, `user_login` unless named. */
export const testWebhookRequestSchema = z.object({
  event: webhookEventSchema.default('user_login'),
});
export type TestWebhookRequest = z.input<typeof testWebhookRequestSchema>;

export const testWebhookResponseSchema = z
  .object({
    success: z.literal(true),
    message: z.string(),
    /** Deliveries queued: one per active webhook that subscribes to the event (or all, if none does). */
    queued: z.number().int(),
  })
  .meta({ id: 'TestWebhookResponse' });
export type TestWebhookResponse = z.infer<typeof testWebhookResponseSchema>;
