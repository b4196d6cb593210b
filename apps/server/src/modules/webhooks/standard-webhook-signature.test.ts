import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signStandardWebhook } from './standard-webhook-signature.ts';
import { parseRetryAfter } from './webhook-dispatcher.ts';

describe('signStandardWebhook', () => {
  it('produces what the standardwebhooks package signs and verifies', () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'user_login', data: { é: '✓' } });
    const signature = signStandardWebhook({ id, timestampSeconds, body, secret });
    const reference = new StandardWebhook(secret);
    expect(signature).toBe(reference.sign(id, new Date(timestampSeconds * 1000), body));
    expect(() =>
      reference.verify(body, {
        'webhook-id': id,
        'webhook-timestamp': String(timestampSeconds),
        'webhook-signature': signature,
      }),
    ).not.toThrow();
    expect(() =>
      reference.verify(body, {
        'webhook-id': 'another-id',
        'webhook-timestamp': String(timestampSeconds),
        'webhook-signature': signature,
      }),
    ).toThrow();
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-04-01T12:00:00Z');
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 Apr 2026 12:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Wed, 01 Apr 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
