import { describe, expect, it } from 'vitest';
import { addressPrefixesOf } from './address-prefixes.ts';

describe('addressPrefixesOf', () => {
  it('counts IPv4 by address and /24', () => {
    expect(addressPrefixesOf('203.0.113.77')).toEqual({
      address: '203.0.113.77',
      range: '203.0.113.0/24',
    });
  });

  it('counts IPv6 by /64 and /48, however the address is spelled', () => {
    const expected = { address: '2001:db8:1:2::/64', range: '2001:db8:1::/48' };
    for (const spelling of [
      '2001:db8:1:2::1',
      '2001:0DB8:0001:0002:ffff:ffff:ffff:fffe',
      '2001:db8:1:2:3:4:5.6.7.8',
      '2001:db8:1:2::1%eth0',
    ]) {
      expect(addressPrefixesOf(spelling), spelling).toEqual(expected);
    }
    expect(addressPrefixesOf('::1')).toEqual({ address: '0:0:0:0::/64', range: '0:0:0::/48' });
    expect(addressPrefixesOf('2001:db8::')).toEqual({
      address: '2001:db8:0:0::/64',
      range: '2001:db8:0::/48',
    });
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 client', () => {
    const expected = { address: '198.51.100.9', range: '198.51.100.0/24' };
    expect(addressPrefixesOf('::ffff:198.51.100.9')).toEqual(expected);
    expect(addressPrefixesOf('::ffff:c633:6409')).toEqual(expected);
  });

  it('keeps what is not an address as it is', () => {
    expect(addressPrefixesOf('')).toEqual({ address: '', range: '' });
    expect(addressPrefixesOf('unknown')).toEqual({ address: 'unknown', range: 'unknown' });
  });
});
