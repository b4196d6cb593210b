import { describe, expect, it } from 'vitest';
import type { WebhookEventPayload } from '@latchkey/contracts';
import { renderWebhookMessage, resolveWebhookFormat } from './render-webhook-message.ts';

const payload = (data: Partial<WebhookEventPayload['data']> = {}): WebhookEventPayload => ({
  type: 'login_failed',
  timestamp: '2026-04-01T12:00:00.000Z',
  data: {
    application: { id: 7, name: 'Demo' },
    user: { id: null, username: 'someone' },
    success: false,
    ipAddress: '203.0.113.9',
    hwid: 'HW',
    version: '1.0.0',
    message: 'Invalid username or password',
    activityLogId: 42,
    ...data,
  },
});

describe('resolveWebhookFormat', () => {
  it.each([
    ['https://discord.com/api/webhooks/1/abc', 'discord'],
    ['https://discordapp.com/api/webhooks/1/abc', 'discord'],
    ['https://DISCORD.com/api/webhooks/1/abc', 'discord'],
    ['https://discord.com/channels/1', 'json'],
    ['https://discord.com.evil.example/api/webhooks/1/abc', 'json'],
    ['https://hooks.slack.com/services/T/B/x', 'slack'],
    ['https://hooks.slack.com.evil.example/services/T/B/x', 'json'],
    ['https://example.com/hook', 'json'],
    ['not a url', 'json'],
  ])('auto picks the format for %s', (url, format) => {
    expect(resolveWebhookFormat('auto', url)).toBe(format);
  });

  it('keeps a format the owner forced', () => {
    expect(resolveWebhookFormat('json', 'https://discord.com/api/webhooks/1/abc')).toBe('json');
    expect(resolveWebhookFormat('slack', 'https://example.com/hook')).toBe('slack');
  });
});

describe('renderWebhookMessage', () => {
  it('sends the canonical payload itself as JSON', () => {
    expect(JSON.parse(renderWebhookMessage(payload(), 'json'))).toEqual(payload());
  });

  it('keeps a Discord embed within Discord limits, whatever the client sent', () => {
    const huge = 'x'.repeat(5000);
    const message = JSON.parse(
      renderWebhookMessage(
        payload({
          application: { id: 7, name: huge },
          user: { id: null, username: huge },
          hwid: huge,
          version: huge,
          message: huge,
          ipAddress: huge,
        }),
        'discord',
      ),
    );
    const [embed] = message.embeds;
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.fields.length).toBeLessThanOrEqual(25);
    let total = embed.title.length + embed.footer.text.length;
    for (const field of embed.fields) {
      expect(field.value.length).toBeLessThanOrEqual(1024);
      expect(field.value.length).toBeGreaterThan(0);
      total += field.name.length + field.value.length;
    }
    expect(total).toBeLessThanOrEqual(6000);
    expect(embed.fields[0].value).toMatch(/^x+…$/);
  });

  it('colours by success, marks test events, and never pings through a username', () => {
    const success = JSON.parse(
      renderWebhookMessage(payload({ success: true, isTest: true }), 'discord'),
    );
    expect(success.embeds[0].color).toBe(0x22c55e);
    expect(success.embeds[0].title).toBe('Login Failed (test)');
    expect(success.allowed_mentions).toEqual({ parse: [] });
    const failure = JSON.parse(renderWebhookMessage(payload(), 'discord'));
    expect(failure.embeds[0].color).toBe(0xef4444);
  });

  it('keeps Slack blocks within Slack limits and escapes its markup', () => {
    const message = JSON.parse(
      renderWebhookMessage(
        payload({ user: { id: null, username: '<!channel> & co' }, message: 'y'.repeat(5000) }),
        'slack',
      ),
    );
    const [header, section] = message.blocks;
    expect(header.text.text.length).toBeLessThanOrEqual(150);
    expect(section.fields.length).toBeLessThanOrEqual(10);
    for (const field of section.fields) expect(field.text.length).toBeLessThanOrEqual(2000);
    expect(section.fields.map((field: { text: string }) => field.text)).toContain(
      '*User*\n&lt;!channel&gt; &amp; co',
    );
    expect(message.text.length).toBeLessThanOrEqual(3000);
  });
});
