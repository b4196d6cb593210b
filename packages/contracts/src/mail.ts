import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { pageQueryFields } from './paging.ts';

/**
 * Mail to end users: every message is a row of the mail outbox, written with what causes it
 * and delivered by a worker over SMTP (or, in development without SMTP_URL, into a local
 * mailbox the console shows). The kinds an application sends, each with its own template.
 */
export const mailKinds = [
  'password_reset',
  'email_verification',
  'license_key',
  'expiry_reminder',
  'new_device',
] as const;
export const mailKindSchema = z.enum(mailKinds);
export type MailKind = z.infer<typeof mailKindSchema>;

export const mailKindLabels: Record<MailKind, string> = {
  password_reset: 'Password reset',
  email_verification: 'E-mail verification',
  license_key: 'Licence key',
  expiry_reminder: 'Expiry reminder',
  new_device: 'New device',
};

/**
 * queued: not tried yet; sending: an instance holds it; sent: the mail server accepted it;
 * retrying: a temporary failure, tried again later; failed: a permanent failure or no tries left.
 */
export const mailStatuses = ['queued', 'sending', 'sent', 'retrying', 'failed'] as const;
export const mailStatusSchema = z.enum(mailStatuses);
export type MailStatus = z.infer<typeof mailStatusSchema>;

/** A link to choose a new password works this long, once. */
export const PASSWORD_RESET_LINK_MINUTES = 30;

/** A link to confirm an e-mail address works this long, once. */
export const EMAIL_VERIFICATION_LINK_HOURS = 24;

export const mailLimits = { senderName: 100, subject: 200, text: 20_000, html: 50_000 } as const;

/** POST /api/portal/:publicId/password/reset: the link's token and the new password. */
export const portalPasswordResetRequestSchema = z.object({
  token: z
    .string({ error: 'This link is not complete: open it again from the e-mail' })
    .regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not complete: open it again from the e-mail'),
  password: z
    .string({ error: 'Please enter a new password' })
    .min(1, 'Please enter a new password')
    .max(1024, 'Your password must be at most 1024 characters'),
});
export type PortalPasswordResetRequest = z.input<typeof portalPasswordResetRequestSchema>;

/** What the reset page says when its link has expired, was used, or is unknown (alike). */
export const PASSWORD_RESET_LINK_INVALID =
  'This link has expired or has already been used. Ask for a new one from the program.';

/** POST /api/portal/:publicId/email/verify: the token of a link that confirms an address. */
export const portalEmailVerifyRequestSchema = z.object({
  token: portalPasswordResetRequestSchema.shape.token,
});
export type PortalEmailVerifyRequest = z.input<typeof portalEmailVerifyRequestSchema>;

/** The verify page's answer: whose address was confirmed, to greet them. */
export const portalEmailVerifiedSchema = z
  .object({ username: z.string(), email: z.string() })
  .meta({ id: 'PortalEmailVerified' });
export type PortalEmailVerified = z.infer<typeof portalEmailVerifiedSchema>;

/** What the verify page says when its link has expired, was used, or is unknown (alike). */
export const EMAIL_VERIFICATION_LINK_INVALID =
  'This link has expired, has already been used, or was for another address. Log in from the program to be sent a new one.';

/** The days before an end of access a reminder goes out, unless the vendor says otherwise. */
export const DEFAULT_EXPIRY_REMINDER_DAYS = 7;

/**
 * POST /api/portal/:publicId/reminders/stop (a reminder's stop link, or a mail program's
 * one-click unsubscribe): whose reminders, and the keyed proof the link carries.
 */
export const portalStopRemindersQuerySchema = z.object({
  user: z.uuid('This link is not complete: open it again from the e-mail'),
  token: z
    .string({ error: 'This link is not complete: open it again from the e-mail' })
    .regex(/^[0-9a-f]{64}$/, 'This link is not complete: open it again from the e-mail'),
});

/** What the stop page says for a link that is not one of ours. */
export const REMINDERS_LINK_INVALID =
  'This link does not stop any reminders: open it again from the latest reminder.';

/** One message of an application's mail log. Its body is never part of it. */
export const mailMessageSchema = z
  .object({
    id: z.uuid(),
    kind: mailKindSchema,
    to: z.string(),
    /** Known once the message was first rendered (its first attempt). */
    subject: z.string().nullable(),
    status: mailStatusSchema,
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
    /** Development's local mailbox kept it: it can be opened as it would be read. */
    canOpen: z.boolean(),
  })
  .meta({ id: 'MailMessage' });
export type MailMessage = z.infer<typeof mailMessageSchema>;

/** GET /api/applications/:id/mail/:messageId: the message, and its text where kept. */
export const openedMailMessageSchema = mailMessageSchema
  .extend({
    /** The local mailbox's copy (development without SMTP); null anywhere else. */
    content: z.object({ subject: z.string(), text: z.string(), html: z.string() }).nullable(),
  })
  .meta({ id: 'OpenedMailMessage' });
export type OpenedMailMessage = z.infer<typeof openedMailMessageSchema>;

/** GET /api/applications/:id/mail: a page, newest first; search in the address or subject. */
export const mailListQuerySchema = z.object({
  ...pageQueryFields,
  status: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(mailStatuses, `status must be one of ${mailStatuses.join(', ')}`).optional(),
  ),
});
export type MailListQuery = z.input<typeof mailListQuerySchema>;

export const mailMessageParamsSchema = z.object({
  id: applicationIdSchema,
  messageId: z.uuid('Message not found'),
});

export const MAIL_MESSAGE_NOT_FOUND = 'Message not found';
export const MAIL_RESEND_NOT_FAILED = 'Only a failed message can be sent again';

/** An owner's mail queued (a reset link, a key): what was done, in a sentence. */
export const mailQueuedSchema = z.object({ message: z.string() }).meta({ id: 'MailQueued' });
export type MailQueued = z.infer<typeof mailQueuedSchema>;

/** What an end user is told (program or portal) when the server sends no mail. */
export const END_USER_MAIL_UNAVAILABLE =
  'This service sends no e-mail, so no link can be sent: ask the vendor to change your password';

export const MAIL_OFF_FOR_OWNER =
  'This server sends no mail: its operator must set SMTP_URL and MAIL_FROM';
export const USER_HAS_NO_EMAIL = 'This user has no e-mail address: add one first';
/** Setting a mail feature on while the server sends no mail. */
export const MAIL_FEATURE_NEEDS_MAIL =
  'This server sends no mail, so this cannot be switched on: its operator must set SMTP_URL and MAIL_FROM';

/** One kind of mail as the application words it; `isDefault` while it is the built-in one. */
export const mailTemplateSchema = z
  .object({
    kind: mailKindSchema,
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    isDefault: z.boolean(),
  })
  .meta({ id: 'MailTemplate' });
export type MailTemplate = z.infer<typeof mailTemplateSchema>;

const templatePart = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/**
 * PUT …/mail-templates/:kind (and the preview's body). Mustache: `{{name}}` for each value;
 * the forms that skip HTML escaping are refused by the server.
 */
export const mailTemplateRequestSchema = z.object({
  subject: templatePart('Subject', mailLimits.subject).refine(
    (value) => !/[\r\n\u0085\u2028\u2029]/.test(value),
    'Subject must be one line',
  ),
  text: templatePart('Text', mailLimits.text),
  html: templatePart('HTML', mailLimits.html),
});
export type MailTemplateRequest = z.input<typeof mailTemplateRequestSchema>;

export const mailTemplateParamsSchema = z.object({
  id: applicationIdSchema,
  kind: z.enum(mailKinds, 'Unknown kind of mail'),
});

/** A template filled in with sample values, as its reader would see it. */
export const renderedMailSchema = z
  .object({ subject: z.string(), text: z.string(), html: z.string() })
  .meta({ id: 'RenderedMail' });
export type RenderedMail = z.infer<typeof renderedMailSchema>;

/** The values each kind of mail offers its template, as `{{name}}`. */
export const mailTemplateValues: Record<MailKind, readonly string[]> = {
  password_reset: ['username', 'app_name', 'link', 'link_minutes'],
  email_verification: ['username', 'app_name', 'link'],
  // order: the shop's order number, for keys a shop sold (empty otherwise).
  license_key: ['app_name', 'key', 'plan', 'order'],
  expiry_reminder: ['username', 'app_name', 'plan', 'expires_on', 'unsubscribe_link'],
  new_device: ['username', 'app_name', 'device_name', 'time'],
};
