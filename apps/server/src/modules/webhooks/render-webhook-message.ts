import {
  webhookEventLabels,
  type WebhookEventPayload,
  type WebhookFormat,
} from '@latchkey/contracts';

export type ResolvedWebhookFormat = Exclude<WebhookFormat, 'auto'>;

const DISCORD_HOSTS = new Set([
  'discord.com',
  'discordapp.com',
  'ptb.discord.com',
  'canary.discord.com',
]);

/** `auto`: Discord for Discord webhook URLs, Slack for Slack's, signed JSON for the rest. */
export function resolveWebhookFormat(format: WebhookFormat, url: string): ResolvedWebhookFormat {
  if (format !== 'auto') return format;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'json';
  }
  const host = parsed.hostname.toLowerCase();
  if (DISCORD_HOSTS.has(host) && parsed.pathname.startsWith('/api/webhooks/')) return 'discord';
  if (host === 'hooks.slack.com') return 'slack';
  return 'json';
}

/** The request body for the format: the canonical payload itself, or a chat message. */
export function renderWebhookMessage(
  payload: WebhookEventPayload,
  format: ResolvedWebhookFormat,
): string {
  switch (format) {
    case 'json':
      return JSON.stringify(payload);
    case 'discord':
      return JSON.stringify(discordMessage(payload));
    case 'slack':
      return JSON.stringify(slackMessage(payload));
  }
}

const GREEN = 0x22c55e;
const RED = 0xef4444;
const NONE = '—';

/** The facts a chat message shows, in order; the same for Discord and Slack. */
function facts(payload: WebhookEventPayload): { name: string; value: string }[] {
  const { data } = payload;
  return [
    { name: 'Application', value: data.application.name },
    { name: 'User', value: data.user.username ?? NONE },
    { name: 'IP', value: data.ipAddress ?? NONE },
    { name: 'HWID', value: data.hwid ?? NONE },
    { name: 'Version', value: data.version ?? NONE },
    ...(data.sessionEndReason ? [{ name: 'Ended by', value: data.sessionEndReason }] : []),
    { name: 'Message', value: data.message ?? NONE },
  ].map((fact) => ({ ...fact, value: fact.value || NONE }));
}

function title(payload: WebhookEventPayload): string {
  const label = webhookEventLabels[payload.type];
  return payload.data.isTest ? `${label} (test)` : label;
}

/** Cuts text to at most `max` UTF-16 units (Discord and Slack count characters). */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).toWellFormed()}…`;
}

/**
 * Discord's documented embed limits: title 256, field name 256, field value 1024, 25
 * fields, footer 2048, and 6000 characters across the embed. Mentions are disabled, so a
 * username like "@everyone" cannot ping a channel.
 */
const discordLimits = { title: 256, fieldName: 256, fieldValue: 1024, fields: 25, total: 6000 };

function discordMessage(payload: WebhookEventPayload) {
  const embedTitle = truncate(title(payload), discordLimits.title);
  const footer = 'Latchkey';
  let budget = discordLimits.total - embedTitle.length - footer.length;
  const fields: { name: string; value: string; inline: boolean }[] = [];
  for (const fact of facts(payload).slice(0, discordLimits.fields)) {
    const name = truncate(fact.name, discordLimits.fieldName);
    const value = truncate(fact.value, Math.min(discordLimits.fieldValue, budget - name.length));
    if (value.length < 1) break;
    budget -= name.length + value.length;
    fields.push({ name, value, inline: fact.name !== 'Message' });
  }
  return {
    username: 'Latchkey',
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: embedTitle,
        color: payload.data.success ? GREEN : RED,
        fields,
        timestamp: payload.timestamp,
        footer: { text: footer },
      },
    ],
  };
}

/**
 * Slack's documented Block Kit limits: header text 150, a section's fields at most 10 of at
 * most 2000 characters each, section text 3000. Text is escaped (&, <, >) so a username
 * cannot become a link or a mention.
 */
const slackLimits = { header: 150, fields: 10, fieldText: 2000, text: 3000 };

function slackMessage(payload: WebhookEventPayload) {
  const heading = truncate(title(payload), slackLimits.header);
  const fields = facts(payload)
    .slice(0, slackLimits.fields)
    .map((fact) => ({
      type: 'mrkdwn',
      text: truncate(`*${fact.name}*\n${escapeSlack(fact.value)}`, slackLimits.fieldText),
    }));
  const status = payload.data.success ? ':large_green_circle: Success' : ':red_circle: Refused';
  return {
    text: truncate(`${heading}: ${escapeSlack(payload.data.application.name)}`, slackLimits.text),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: heading } },
      { type: 'section', text: { type: 'mrkdwn', text: status }, fields },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `Latchkey · ${payload.timestamp}` }],
      },
    ],
  };
}

function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
