import { describe, expect, it } from 'vitest';
import {
  accountExpiryText,
  asSentence,
  deviceCountText,
  deviceNameOf,
  nextReleaseText,
  subscriptionExpiryText,
  meterResetText,
  meterUsageText,
  subscriptionUpdatesText,
  waitText,
} from './format.ts';
import { portalAddressOf } from './public-id.ts';

const utc = { locale: 'en-US', timeZone: 'UTC' };
/** Some ICU versions put a narrow no-break space before AM/PM. */
const plain = (text: string | null) => text?.replace(/[\u202f\u00a0]/g, ' ') ?? null;

describe('the portal’s wording', () => {
  it('says Never for an account without expiry, else the date and time', () => {
    expect(accountExpiryText(null, utc)).toBe('Never');
    expect(plain(accountExpiryText('2031-01-15T10:00:00.000Z', utc))).toBe(
      'Jan 15, 2031, 10:00 AM',
    );
  });

  it('says Lifetime, Expires or Ended for a subscription', () => {
    const expiry = (expiresAt: string | null, isActive: boolean) =>
      plain(subscriptionExpiryText({ expiresAt, isActive }, utc));
    expect(expiry(null, true)).toBe('Lifetime');
    expect(expiry('2031-01-15T10:00:00.000Z', true)).toBe('Expires Jan 15, 2031, 10:00 AM');
    expect(expiry('2020-01-15T10:00:00.000Z', false)).toBe('Ended Jan 15, 2020, 10:00 AM');
  });

  it('says until when a subscription gets updates, or how many days wait for a sign-in', () => {
    const updates = (updatesUntil: string | null, updatesPendingDays: number | null) =>
      plain(subscriptionUpdatesText({ updatesUntil, updatesPendingDays }, utc));
    expect(updates(null, null)).toBeNull();
    expect(updates('2031-01-15T10:00:00.000Z', null)).toBe('Updates until Jan 15, 2031, 10:00 AM');
    expect(updates(null, 365)).toBe('365 days of updates from your next sign-in in the program');
    expect(updates(null, 1)).toBe('1 day of updates from your next sign-in in the program');
  });

  it('words a meter’s use, and its overage when it counts one', () => {
    expect(meterUsageText({ used: 20, allowance: 500, overage: 0 }, 'en-US')).toBe(
      '20 of 500 used',
    );
    expect(meterUsageText({ used: 1250, allowance: 1000, overage: 250 }, 'en-US')).toBe(
      '1,250 used: 1,000 included, 250 over',
    );
  });

  it('says when a meter resets, or that it does not', () => {
    expect(meterResetText(null, utc)).toBe('Does not reset');
    expect(plain(meterResetText('2031-02-01T00:00:00.000Z', utc))).toBe(
      'Resets Feb 1, 2031, 12:00 AM',
    );
  });

  it('counts devices against the limit, singular for a limit of one', () => {
    expect(deviceCountText(2, 3)).toBe('2 of 3 devices');
    expect(deviceCountText(0, 1)).toBe('0 of 1 device');
  });

  it('names a device without a name (or with a blank one) Unnamed device', () => {
    expect(deviceNameOf({ name: 'Studio PC' })).toBe('Studio PC');
    expect(deviceNameOf({ name: null })).toBe('Unnamed device');
    expect(deviceNameOf({ name: '   ' })).toBe('Unnamed device');
  });

  it('says when the next release is allowed: now, a time, or nothing when self-service is off', () => {
    const now = new Date('2030-06-01T12:00:00.000Z');
    const next = (selfServiceReset: boolean, nextResetAt: string | null) =>
      plain(nextReleaseText({ selfServiceReset, nextResetAt }, now, utc));
    expect(next(true, null)).toBe('You can release a device now.');
    expect(next(true, '2030-06-01T11:59:00.000Z')).toBe('You can release a device now.');
    expect(next(true, '2030-06-02T12:00:00.000Z')).toBe(
      'You can release another device after Jun 2, 2030, 12:00 PM.',
    );
    expect(next(false, null)).toBeNull();
  });

  it('asks to wait in seconds, then in minutes', () => {
    expect(waitText(1)).toBe('Please wait 1 second, then try again.');
    expect(waitText(59.2)).toBe('Please wait 60 seconds, then try again.');
    expect(waitText(0)).toBe('Please wait 1 second, then try again.');
    expect(waitText(900)).toBe('Please wait 15 minutes, then try again.');
  });

  it('ends a message with a full stop once', () => {
    expect(asSentence('Too many failed login attempts')).toBe('Too many failed login attempts.');
    expect(asSentence('Done.')).toBe('Done.');
  });
});

describe('portalAddressOf', () => {
  const publicId = '0123456789abcdef0123';
  it('reads the 20 hex digits of /portal/:publicId, with or without a trailing slash', () => {
    expect(portalAddressOf(`/portal/${publicId}`)).toEqual({ publicId, page: 'account' });
    expect(portalAddressOf(`/portal/${publicId}/`)).toEqual({ publicId, page: 'account' });
  });

  it('reads the page of a mailed link', () => {
    expect(portalAddressOf(`/portal/${publicId}/reset`)).toEqual({ publicId, page: 'reset' });
    expect(portalAddressOf(`/portal/${publicId}/verify`)).toEqual({ publicId, page: 'verify' });
    expect(portalAddressOf(`/portal/${publicId}/unsubscribe`)).toEqual({
      publicId,
      page: 'unsubscribe',
    });
  });

  it('refuses anything else', () => {
    for (const path of [
      '/portal/',
      '/portal/0123456789ABCDEF0123',
      '/portal/0123456789abcdef012',
      '/portal/0123456789abcdef0123/x',
      '/portal/0123456789abcdef0123/reset/',
      '/portal/0123456789abcdef0123/verify/',
      '/portal/0123456789abcdef0123/unsubscribe/',
      '/portal.html',
      '/x/portal/0123456789abcdef0123',
    ]) {
      expect(portalAddressOf(path), path).toBeNull();
    }
  });
});
