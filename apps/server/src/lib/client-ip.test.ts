import { describe, expect, it } from 'vitest';
import { normalizeIpAddress } from './client-ip.ts';

describe('normalizeIpAddress', () => {
  it('spells each address one way', () => {
    expect(normalizeIpAddress('127.0.0.2')).toBe('127.0.0.2');
    expect(normalizeIpAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeIpAddress('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeIpAddress('2001:DB8:0:0::1')).toBe('2001:db8::1');
    expect(normalizeIpAddress('::1')).toBe('::1');
    expect(normalizeIpAddress('fe80::1%eth0')).toBe('fe80::1%eth0');
  });
});
