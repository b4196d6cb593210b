import { afterEach, describe, expect, it } from 'vitest';
import {
  describeHwidCell,
  describeHwidLockCell,
  formatDeviceSeats,
  describeLoginAttempts,
  fromDateTimeLocalValue,
  getAppUserStatus,
  getHwidLockLabel,
  getSettableAppUserStatus,
  SETTABLE_APP_USER_STATUSES,
  toAppUserStatusFlags,
  toDateTimeLocalValue,
} from './app-user-display.ts';

const NOW = new Date('2030-06-01T12:00:00.000Z');
const PAST = '2030-05-31T12:00:00.000Z';
const FUTURE = '2030-06-02T12:00:00.000Z';

describe('getAppUserStatus', () => {
  const user = (overrides: Partial<Parameters<typeof getAppUserStatus>[0]>) => ({
    expiresAt: null,
    isPaused: false,
    isActive: true,
    ...overrides,
  });

  it('reads the flags as one state: Disabled whenever off, else Paused or Active', () => {
    expect(getAppUserStatus(user({}), NOW)).toBe('Active');
    expect(getAppUserStatus(user({ isPaused: true }), NOW)).toBe('Paused');
    expect(getAppUserStatus(user({ isActive: false }), NOW)).toBe('Disabled');
    expect(getAppUserStatus(user({ isActive: false, isPaused: true }), NOW)).toBe('Disabled');
  });

  it('puts Expired above every state set by hand', () => {
    expect(getAppUserStatus(user({ expiresAt: PAST }), NOW)).toBe('Expired');
    expect(getAppUserStatus(user({ expiresAt: PAST, isPaused: true }), NOW)).toBe('Expired');
    expect(getAppUserStatus(user({ expiresAt: PAST, isActive: false }), NOW)).toBe('Expired');
  });

  it('treats a future expiry as not expired', () => {
    expect(getAppUserStatus(user({ expiresAt: FUTURE }), NOW)).toBe('Active');
    expect(getAppUserStatus(user({ expiresAt: FUTURE, isPaused: true }), NOW)).toBe('Paused');
    expect(getAppUserStatus(user({ expiresAt: FUTURE, isActive: false }), NOW)).toBe('Disabled');
  });

  it('agrees with the state the Edit User dialog sets, until the expiry passes', () => {
    for (const isActive of [true, false]) {
      for (const isPaused of [true, false]) {
        const flags = { isActive, isPaused };
        expect(getAppUserStatus(user(flags), NOW)).toBe(getSettableAppUserStatus(flags));
      }
    }
  });
});

describe('toAppUserStatusFlags', () => {
  it("sets the server's flags of each state, and reads back as that state", () => {
    expect(toAppUserStatusFlags('Active')).toEqual({ isActive: true, isPaused: false });
    expect(toAppUserStatusFlags('Paused')).toEqual({ isActive: true, isPaused: true });
    for (const status of SETTABLE_APP_USER_STATUSES) {
      for (const isPaused of [true, false]) {
        const saved = { isActive: true, isPaused, ...toAppUserStatusFlags(status) };
        expect(getSettableAppUserStatus(saved)).toBe(status);
      }
    }
  });

  it('leaves the pause of a disabled user as it is', () => {
    expect(toAppUserStatusFlags('Disabled')).toEqual({ isActive: false });
  });
});

describe('getHwidLockLabel (dashboard)', () => {
  it('is Disabled whenever the application does not lock, bound or not', () => {
    expect(getHwidLockLabel('HWID-1', false)).toBe('Disabled');
    expect(getHwidLockLabel(null, false)).toBe('Disabled');
  });

  it('is Locked with a bound HWID and Not Set without one', () => {
    expect(getHwidLockLabel('HWID-1', true)).toBe('Locked');
    expect(getHwidLockLabel(null, true)).toBe('Not Set');
    expect(getHwidLockLabel('', true)).toBe('Not Set');
  });
});

describe('describeHwidCell (management page)', () => {
  it('shows the first 8 characters of a bound HWID, lock on or off', () => {
    const bound = { kind: 'bound', preview: 'ABCD-EFG...', hwid: 'ABCD-EFGH-1234' };
    expect(describeHwidCell('ABCD-EFGH-1234', true)).toEqual(bound);
    expect(describeHwidCell('ABCD-EFGH-1234', false)).toEqual(bound);
  });

  it('explains an empty HWID by the application lock', () => {
    expect(describeHwidCell(null, true)).toEqual({
      kind: 'empty',
      text: 'Will be set on first login',
    });
    expect(describeHwidCell(null, false)).toEqual({ kind: 'empty', text: 'Not required' });
  });
});

describe('device seats in the HWID columns', () => {
  const seats = (deviceCount: number, deviceLimit: number) => ({ deviceCount, deviceLimit });

  it('counts devices against the limit', () => {
    expect(formatDeviceSeats(seats(2, 3))).toBe('2 of 3 devices');
    expect(formatDeviceSeats(seats(0, 1))).toBe('0 of 1 device');
  });

  it('shows the count on the dashboard where more than one device may be bound', () => {
    expect(describeHwidLockCell('HWID-1', true, seats(2, 3))).toEqual({
      label: 'Locked',
      text: '2 of 3 devices',
    });
    expect(describeHwidLockCell(null, true, seats(0, 3))).toEqual({
      label: 'Not Set',
      text: '0 of 3 devices',
    });
  });

  it("keeps the spec's dashboard labels at a limit of 1, and Disabled with the lock off", () => {
    expect(describeHwidLockCell('HWID-1', true, seats(1, 1))).toEqual({
      label: 'Locked',
      text: 'Locked',
    });
    expect(describeHwidLockCell(null, true, seats(0, 1)).text).toBe('Not Set');
    expect(describeHwidLockCell('HWID-1', false, seats(2, 3)).text).toBe('Disabled');
  });

  it("shows the count on the management page where more than one may be bound, else the spec's cell", () => {
    expect(describeHwidCell('ABCD-EFGH-1234', true, seats(2, 3))).toEqual({
      kind: 'seats',
      text: '2 of 3 devices',
    });
    expect(describeHwidCell(null, true, seats(0, 3))).toEqual({
      kind: 'seats',
      text: '0 of 3 devices',
    });
    expect(describeHwidCell('ABCD-EFGH-1234', true, seats(1, 1))).toEqual({
      kind: 'bound',
      preview: 'ABCD-EFG...',
      hwid: 'ABCD-EFGH-1234',
    });
    expect(describeHwidCell(null, true, seats(0, 1))).toEqual({
      kind: 'empty',
      text: 'Will be set on first login',
    });
    // With the lock off devices are not bound: the spec's cell stays.
    expect(describeHwidCell(null, false, seats(0, 3))).toEqual({
      kind: 'empty',
      text: 'Not required',
    });
  });
});

describe('describeLoginAttempts', () => {
  it('warns from the first attempt and turns red above 5', () => {
    expect(describeLoginAttempts(0)).toEqual({ isExcessive: false, hasWarning: false });
    expect(describeLoginAttempts(1)).toEqual({ isExcessive: false, hasWarning: true });
    expect(describeLoginAttempts(5)).toEqual({ isExcessive: false, hasWarning: true });
    expect(describeLoginAttempts(6)).toEqual({ isExcessive: true, hasWarning: true });
  });
});

describe('expiry in a datetime-local input', () => {
  const originalTimeZone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = originalTimeZone;
  });

  it('prefills minute precision in local time, not UTC', () => {
    process.env.TZ = 'America/New_York';
    expect(toDateTimeLocalValue('2030-01-15T15:30:45.123Z')).toBe('2030-01-15T10:30');
    // Summer time moves the offset to -4.
    expect(toDateTimeLocalValue('2030-07-15T15:30:45.123Z')).toBe('2030-07-15T11:30');

    process.env.TZ = 'Asia/Kolkata';
    expect(toDateTimeLocalValue('2030-01-15T20:45:00.000Z')).toBe('2030-01-16T02:15');

    process.env.TZ = 'UTC';
    expect(toDateTimeLocalValue('2030-01-15T15:30:45.123Z')).toBe('2030-01-15T15:30');
  });

  it('is empty for no expiry', () => {
    expect(toDateTimeLocalValue(null)).toBe('');
    expect(toDateTimeLocalValue('not a date')).toBe('');
  });

  it('round-trips a local value to the ISO instant it means', () => {
    process.env.TZ = 'Europe/Berlin';
    const iso = fromDateTimeLocalValue('2030-01-15T10:30');
    expect(iso).toBe('2030-01-15T09:30:00.000Z');
    expect(toDateTimeLocalValue(iso)).toBe('2030-01-15T10:30');
  });

  it('sends nothing for an empty field', () => {
    expect(fromDateTimeLocalValue('')).toBeNull();
    expect(fromDateTimeLocalValue('   ')).toBeNull();
  });
});
