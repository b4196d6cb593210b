import { describe, expect, it } from 'vitest';
import { licensingOf, type HeldSubscription } from './held-subscriptions.ts';

describe('licensingOf', () => {
  const day = 86_400_000;
  const start = new Date('2026-06-01T00:00:00Z');
  const held: HeldSubscription[] = [
    {
      plan: 'Trial',
      expiresAt: new Date(start.getTime() + day),
      entitlements: ['PRO', 'TRIAL'],
      maxDevices: null,
      updatesUntil: null,
      updatesPendingDays: null,
      meters: [],
      meterUsage: null,
      floating: null,
    },
    {
      plan: 'Export',
      expiresAt: new Date(start.getTime() + 10 * day),
      entitlements: ['EXPORT'],
      maxDevices: null,
      updatesUntil: null,
      updatesPendingDays: null,
      meters: [],
      meterUsage: null,
      floating: null,
    },
    {
      plan: 'Lapsed',
      expiresAt: new Date(start.getTime() - day),
      entitlements: ['OLD'],
      maxDevices: null,
      updatesUntil: null,
      updatesPendingDays: null,
      meters: [],
      meterUsage: null,
      floating: null,
    },
  ];

  it('answers the active subscriptions and their sorted entitlements', () => {
    const { answer, entitlements } = licensingOf(held, start);
    expect(answer).toEqual({
      entitlements: ['EXPORT', 'PRO', 'TRIAL'],
      subscriptions: [
        { plan: 'Trial', expires_at: '2026-06-02T00:00:00.000Z' },
        { plan: 'Export', expires_at: '2026-06-11T00:00:00.000Z' },
      ],
      updates_until: null,
    });
    expect(entitlements.has('OLD')).toBe(false);
  });

  it('reuses its answer for the same list until a subscription lapses, then works it out again', () => {
    const first = licensingOf(held, start);
    expect(licensingOf(held, new Date(start.getTime() + day - 1))).toBe(first);
    const afterTrial = licensingOf(held, new Date(start.getTime() + day));
    expect(afterTrial).not.toBe(first);
    expect(afterTrial.answer.entitlements).toEqual(['EXPORT']);
    expect(licensingOf(held, new Date(start.getTime() + 10 * day)).answer).toEqual({
      entitlements: [],
      subscriptions: [],
      updates_until: null,
    });
  });

  it('holds for ever when every active subscription is lifetime', () => {
    const lifetime: HeldSubscription[] = [
      {
        plan: 'Life',
        expiresAt: null,
        entitlements: ['PRO'],
        maxDevices: null,
        updatesUntil: null,
        updatesPendingDays: null,
        meters: [],
        meterUsage: null,
        floating: null,
      },
    ];
    const first = licensingOf(lifetime, start);
    expect(licensingOf(lifetime, new Date(start.getTime() + 1000 * day))).toBe(first);
  });
});
