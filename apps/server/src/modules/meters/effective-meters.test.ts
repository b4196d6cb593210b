import { describe, expect, it } from 'vitest';
import { clientMetersOf, effectiveMeters, nextMeterResetMs } from './effective-meters.ts';

const now = new Date('2026-05-30T12:00:00Z');

describe('effective meters', () => {
  it('merges one name across plans: allowances added, the shortest period, overage if any counts', () => {
    expect(
      effectiveMeters([
        [
          { name: 'exports', allowance: 500, resetEvery: 'month', overage: 'refuse' },
          { name: 'api', allowance: 10, resetEvery: 'none', overage: 'refuse' },
        ],
        [{ name: 'exports', allowance: 250, resetEvery: 'week', overage: 'count' }],
      ]),
    ).toEqual([
      { name: 'api', allowance: 10, resetEvery: 'none', overage: 'refuse' },
      { name: 'exports', allowance: 750, resetEvery: 'week', overage: 'count' },
    ]);
  });

  it('counts use of the current period only, and never answers a negative remainder', () => {
    const meters = effectiveMeters([
      [
        { name: 'exports', allowance: 10, resetEvery: 'day', overage: 'count' },
        { name: 'credits', allowance: 5, resetEvery: 'month', overage: 'refuse' },
      ],
    ]);
    const usage = [
      { name: 'exports', periodStart: new Date('2026-05-30T00:00:00Z'), used: 14 },
      // Last month's: this month starts again at 0.
      { name: 'credits', periodStart: new Date('2026-04-01T00:00:00Z'), used: 5 },
    ];
    expect(clientMetersOf(meters, usage, now)).toEqual([
      {
        name: 'credits',
        allowance: 5,
        used: 0,
        remaining: 5,
        overage: 0,
        resets_at: '2026-06-01T00:00:00.000Z',
      },
      {
        name: 'exports',
        allowance: 10,
        used: 14,
        remaining: 0,
        overage: 4,
        resets_at: '2026-05-31T00:00:00.000Z',
      },
    ]);
    expect(nextMeterResetMs(meters, now)).toBe(Date.parse('2026-05-31T00:00:00Z'));
    expect(nextMeterResetMs([], now)).toBe(Infinity);
  });
});
