import { describe, expect, it } from 'vitest';
import { meterPeriodOf } from './meter-periods.ts';

const at = (iso: string) => new Date(iso);
const period = (resetEvery: Parameters<typeof meterPeriodOf>[0], now: string) => {
  const { start, end } = meterPeriodOf(resetEvery, at(now));
  return [start.toISOString(), end?.toISOString() ?? null];
};

describe('meter periods on the UTC calendar', () => {
  it('runs a day from midnight to midnight', () => {
    expect(period('day', '2026-05-30T23:59:59.999Z')).toEqual([
      '2026-05-30T00:00:00.000Z',
      '2026-05-31T00:00:00.000Z',
    ]);
    expect(period('day', '2026-05-31T00:00:00.000Z')[0]).toBe('2026-05-31T00:00:00.000Z');
  });

  it('runs a week from Monday, a Sunday belonging to the week before', () => {
    expect(period('week', '2026-05-31T12:00:00Z')).toEqual([
      '2026-05-25T00:00:00.000Z',
      '2026-06-01T00:00:00.000Z',
    ]);
    expect(period('week', '2026-06-01T00:00:00Z')[0]).toBe('2026-06-01T00:00:00.000Z');
    // Across a year's end.
    expect(period('week', '2027-01-01T08:00:00Z')).toEqual([
      '2026-12-28T00:00:00.000Z',
      '2027-01-04T00:00:00.000Z',
    ]);
  });

  it('runs a month from its first day, whatever its length', () => {
    expect(period('month', '2028-02-29T10:00:00Z')).toEqual([
      '2028-02-01T00:00:00.000Z',
      '2028-03-01T00:00:00.000Z',
    ]);
    expect(period('month', '2026-12-31T23:00:00Z')[1]).toBe('2027-01-01T00:00:00.000Z');
  });

  it('runs a year from 1 January, and a meter that never resets from the epoch for ever', () => {
    expect(period('year', '2026-07-04T00:00:00Z')).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
    expect(period('none', '2026-07-04T00:00:00Z')).toEqual(['1970-01-01T00:00:00.000Z', null]);
  });
});
