import { describe, expect, it } from 'vitest';
import { isAddressAllowed } from './ip-allowlist.ts';

describe('isAddressAllowed', () => {
  it('matches single IPv4 and IPv6 addresses exactly', () => {
    expect(isAddressAllowed('203.0.113.7', ['203.0.113.7'])).toBe(true);
    expect(isAddressAllowed('203.0.113.8', ['203.0.113.7'])).toBe(false);
    expect(isAddressAllowed('2001:db8::1', ['2001:db8:0:0::1'])).toBe(true);
    expect(isAddressAllowed('2001:db8::2', ['2001:db8::1'])).toBe(false);
  });

  it('matches CIDR ranges of both families', () => {
    expect(isAddressAllowed('198.51.100.200', ['198.51.100.0/24'])).toBe(true);
    expect(isAddressAllowed('198.51.101.1', ['198.51.100.0/24'])).toBe(false);
    expect(isAddressAllowed('2001:db8:abcd::5', ['2001:db8::/32'])).toBe(true);
    expect(isAddressAllowed('2001:db9::5', ['2001:db8::/32'])).toBe(false);
    expect(isAddressAllowed('10.1.2.3', ['0.0.0.0/0'])).toBe(true);
  });

  it('never matches across families', () => {
    expect(isAddressAllowed('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
    expect(isAddressAllowed('10.0.0.1', ['::/0'])).toBe(false);
  });

  it('sees an IPv4 client behind an IPv6 socket as IPv4', () => {
    expect(isAddressAllowed('::ffff:203.0.113.7', ['203.0.113.0/24'])).toBe(true);
    expect(isAddressAllowed('203.0.113.7', ['::ffff:203.0.113.0/120'])).toBe(true);
    expect(isAddressAllowed('203.0.114.7', ['::ffff:203.0.113.0/120'])).toBe(false);
  });

  it('allows nothing for an empty list, a malformed address or a malformed entry', () => {
    expect(isAddressAllowed('203.0.113.7', [])).toBe(false);
    expect(isAddressAllowed('not-an-ip', ['0.0.0.0/0'])).toBe(false);
    expect(isAddressAllowed('203.0.113.7', ['203.0.113.0/33', 'nonsense'])).toBe(false);
  });
});
