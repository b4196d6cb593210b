import { describe, expect, it } from 'vitest';
import { redactAuditedChange } from './redact-audited-change.ts';

describe('redactAuditedChange', () => {
  it('redacts secrets at any depth, in objects and in arrays', () => {
    expect(
      redactAuditedChange({
        username: 'pat',
        password: 'hunter2',
        profile: { contact: { apiKey: 'k-1', phone: '555' } },
        hooks: [{ url: 'https://a.example', secret: 's-1', nested: [{ refreshToken: 't-1' }] }],
        licenseKey: 'ABCD-EFGH',
      }),
    ).toEqual({
      username: 'pat',
      password: '[redacted]',
      profile: { contact: { apiKey: '[redacted]', phone: '555' } },
      hooks: [
        {
          url: 'https://a.example',
          secret: '[redacted]',
          nested: [{ refreshToken: '[redacted]' }],
        },
      ],
      licenseKey: '[redacted]',
    });
  });

  it('keeps an entry small and plain: depth, items and text are bounded, dates become text', () => {
    let deep: Record<string, unknown> = { password: 'deepest' };
    for (let level = 0; level < 50; level += 1) deep = { next: deep };
    const redacted = redactAuditedChange({
      deep,
      list: Array.from({ length: 150 }, (_, index) => index),
      text: 'x'.repeat(5_000),
      when: new Date('2030-01-01T00:00:00Z'),
      left: undefined,
    })!;
    expect(JSON.stringify(redacted)).not.toContain('deepest');
    expect(JSON.stringify(redacted)).toContain('[nested too deep]');
    expect(redacted.list).toHaveLength(101);
    expect((redacted.list as unknown[]).at(-1)).toBe('… 50 more');
    expect((redacted.text as string).length).toBe(1_001);
    expect(redacted.when).toBe('2030-01-01T00:00:00.000Z');
    expect('left' in redacted).toBe(false);
  });

  it('answers null for no change', () => {
    expect(redactAuditedChange(null)).toBeNull();
    expect(redactAuditedChange(undefined)).toBeNull();
  });
});
