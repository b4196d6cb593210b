import type { MeterResetEvery } from '@latchkey/contracts';

/** A meter's period: when it began, and when the next one begins (null: never). */
export interface MeterPeriod {
  start: Date;
  end: Date | null;
}

/** The period of a meter that never resets: all of time, from the epoch. */
const FOREVER: MeterPeriod = { start: new Date(0), end: null };

/**
 * The period `now` falls in, on the UTC calendar: a day from midnight, a week from Monday, a
 * month from its first day, a year from 1 January. The calendar, not the grant date, so every
 * instance (and the vendor reading the docs) agrees on when each meter starts again, with no
 * job to run: the counting statement compares the stored period with this one.
 */
export function meterPeriodOf(resetEvery: MeterResetEvery, now: Date): MeterPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = now.getUTCDate();
  switch (resetEvery) {
    case 'none':
      return FOREVER;
    case 'day':
      return { start: utc(year, month, day), end: utc(year, month, day + 1) };
    case 'week': {
      // getUTCDay: Sunday 0 … Saturday 6; ISO weeks start on Monday.
      const sinceMonday = (now.getUTCDay() + 6) % 7;
      return {
        start: utc(year, month, day - sinceMonday),
        end: utc(year, month, day - sinceMonday + 7),
      };
    }
    case 'month':
      return { start: utc(year, month, 1), end: utc(year, month + 1, 1) };
    case 'year':
      return { start: utc(year, 0, 1), end: utc(year + 1, 0, 1) };
  }
}

const utc = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day));

/** Periods from the shortest: when meters of one name reset differently, the shortest wins. */
export const RESET_ORDER: readonly MeterResetEvery[] = ['day', 'week', 'month', 'year', 'none'];
