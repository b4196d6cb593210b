import {
  createWebhookRequestSchema,
  WEBHOOK_EVENT_BADGE_LIMIT,
  type CreateWebhookRequest,
  type Webhook,
  type WebhookDeliveryStatus,
  type WebhookEvent,
  type WebhookFormat,
} from '@latchkey/contracts';
import { contractProblems } from '@/lib/first-problem.ts';

export const webhookFormatLabels: Record<WebhookFormat, string> = {
  auto: 'Auto',
  discord: 'Discord',
  slack: 'Slack',
  json: 'JSON',
};

export const webhookFormatHints: Record<WebhookFormat, string> = {
  auto: 'Discord or Slack messages for their webhook URLs, signed JSON for any other URL.',
  discord: 'A Discord embed, whatever the URL.',
  slack: 'Slack blocks, whatever the URL.',
  json: 'Signed JSON (Standard Webhooks), whatever the URL.',
};

export const webhookDeliveryStatusLabels: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** The application select's value for "every application" (Radix reserves ''). */
export const ALL_APPLICATIONS_VALUE = 'all';
export const ALL_APPLICATIONS_LABEL = 'All applications';

/** The Application scope of a row: the application's name, or 'All applications'. */
export function getWebhookScopeLabel(webhook: Pick<Webhook, 'applicationId' | 'application'>) {
  if (webhook.applicationId === null) return ALL_APPLICATIONS_LABEL;
  return webhook.application?.name || `App ${webhook.applicationId}`;
}

/** At most 3 event badges, then '+N more' for the rest. */
export function splitEventBadges(events: readonly WebhookEvent[]): {
  shown: WebhookEvent[];
  moreCount: number;
} {
  return {
    shown: events.slice(0, WEBHOOK_EVENT_BADGE_LIMIT),
    moreCount: Math.max(events.length - WEBHOOK_EVENT_BADGE_LIMIT, 0),
  };
}

export interface WebhookFields {
  url: string;
  secret: string;
  events: WebhookEvent[];
  /** ALL_APPLICATIONS_VALUE or an application id as a string. */
  scope: string;
  format: WebhookFormat;
  isActive: boolean;
}

export const EMPTY_WEBHOOK_FIELDS: WebhookFields = {
  url: '',
  secret: '',
  events: [],
  scope: ALL_APPLICATIONS_VALUE,
  format: 'auto',
  isActive: true,
};

/** An edit starts from the saved webhook; the secret field stays blank (blank keeps it). */
export function toWebhookFields(webhook: Webhook): WebhookFields {
  return {
    url: webhook.url,
    secret: '',
    events: [...webhook.events],
    scope: webhook.applicationId === null ? ALL_APPLICATIONS_VALUE : String(webhook.applicationId),
    format: webhook.format,
    isActive: webhook.isActive,
  };
}

/**
 * The body of POST and PUT (url, secret, events, isActive, plus scope and format). A blank
 * secret is left out: on create the server generates one, on edit it keeps the current one.
 */
export function toWebhookRequest(fields: WebhookFields): CreateWebhookRequest {
  const secret = fields.secret.trim();
  return {
    url: fields.url.trim(),
    ...(secret ? { secret } : {}),
    events: fields.events,
    isActive: fields.isActive,
    applicationId: fields.scope === ALL_APPLICATIONS_VALUE ? null : Number(fields.scope),
    format: fields.format,
  };
}

/** A webhook with no events would never send anything: the form asks for one. */
export const WEBHOOK_EVENTS_REQUIRED = 'Choose at least one event';

/**
 * The form field a request path is about, or undefined for one the form shows no problem at
 * (the application and the format are chosen from lists of valid values).
 */
export function webhookFieldOf(path: string): 'url' | 'secret' | 'events' | undefined {
  const [first = ''] = path.split('.');
  return first === 'url' || first === 'secret' || first === 'events' ? first : undefined;
}

/**
 * Each field's problem, all at once, empty when the webhook may be sent. The contract's own
 * schema decides, so a blank URL gives 'Please provide a webhook URL' as the server would;
 * whether the host is allowed is the server's call (it knows its mode).
 */
export function findWebhookProblems(fields: WebhookFields): Partial<Record<string, string>> {
  const problems = contractProblems(
    createWebhookRequestSchema,
    toWebhookRequest(fields),
    (path) => webhookFieldOf(path) ?? '',
  );
  if (fields.events.length === 0) problems.events ??= WEBHOOK_EVENTS_REQUIRED;
  return problems;
}

/** Events in the contract's order, whatever order they were ticked in. */
export function toggleEvent(
  events: readonly WebhookEvent[],
  event: WebhookEvent,
  isChecked: boolean,
  order: readonly WebhookEvent[],
): WebhookEvent[] {
  const chosen = new Set(events);
  if (isChecked) chosen.add(event);
  else chosen.delete(event);
  return order.filter((candidate) => chosen.has(candidate));
}
