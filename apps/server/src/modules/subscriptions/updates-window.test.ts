import { describe, expect, it } from 'vitest';
import {
  isPastUpdatesWindow,
  newUpdatesWindow,
  updatesUntilOf,
  type WindowedSubscription,
} from './updates-window.ts';

const DAY = 86_400_000;
const now = new Date('2026-06-01T00:00:00Z');
const after = (days: number) => new Date(now.getTime() + days * DAY);
const held = (overrides: Partial<WindowedSubscription>): WindowedSubscription => ({
  expiresAt: null,
  updatesUntil: null,
  updatesPendingDays: null,
  ...overrides,
});

describe('newUpdatesWindow', () => {
  it('starts at the grant, waits for a login, or is none', () => {
    expect(newUpdatesWindow({ updatesForDays: 30, updatesFrom: 'redemption' }, now)).toEqual({
      updatesUntil: after(30),
      updatesPendingDays: null,
    });
    expect(newUpdatesWindow({ updatesForDays: 30, updatesFrom: 'activation' }, now)).toEqual({
      updatesUntil: null,
      updatesPendingDays: 30,
    });
    expect(newUpdatesWindow({ updatesForDays: null, updatesFrom: 'activation' }, now)).toEqual({
      updatesUntil: null,
      updatesPendingDays: null,
    });
  });
});

describe('updatesUntilOf', () => {
  it('is null (every release) for no subscription, or an active one without a window', () => {
    expect(updatesUntilOf([], now)).toBeNull();
    expect(updatesUntilOf([held({ updatesUntil: after(5) }), held({})], now)).toBeNull();
  });

  it('takes the latest window of the active subscriptions only', () => {
    expect(
      updatesUntilOf(
        [
          held({ updatesUntil: after(5) }),
          held({ updatesUntil: after(9), expiresAt: after(-1) }),
          held({ updatesUntil: after(7), expiresAt: after(1) }),
        ],
        now,
      ),
    ).toEqual(after(7));
    // Once every subscription has lapsed there is no window left to hold anyone to.
    expect(updatesUntilOf([held({ updatesUntil: after(5), expiresAt: after(-1) })], now)).toBe(
      null,
    );
  });

  it('counts days waiting for a login from now', () => {
    expect(updatesUntilOf([held({ updatesPendingDays: 3 })], now)).toEqual(after(3));
  });
});

describe('isPastUpdatesWindow', () => {
  it('holds a release published after the window, never one at its end or without a window', () => {
    expect(isPastUpdatesWindow(after(5), after(6))).toBe(true);
    expect(isPastUpdatesWindow(after(5), after(5))).toBe(false);
    expect(isPastUpdatesWindow(null, after(500))).toBe(false);
  });
});
