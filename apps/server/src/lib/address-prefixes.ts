import { isIP } from 'node:net';

/** The two sizes a client address is counted at by the guess throttles. */
export interface AddressPrefixes {
  /** What one client holds: an IPv4 address, or an IPv6 /64 (one subnet, one customer). */
  address: string;
  /** What one network holds: an IPv4 /24, or an IPv6 /48 (one site). */
  range: string;
}

/**
 * The address and range a client address belongs to. An IPv6 client is handed a whole /64 and
 * can use a new address of it for every request, so counting single IPv6 addresses would count
 * nothing; guessing from many addresses comes from a few ranges (one provider, one cloud
 * block), so a range is counted too. Anything that is not an address (a socket already gone)
 * is its own address and range.
 */
export function addressPrefixesOf(ipAddress: string): AddressPrefixes {
  // Zone ids (fe80::1%eth0) name an interface, not another client.
  const address = ipAddress.split('%')[0]!;
  const kind = isIP(address);
  if (kind === 4) return ipv4Prefixes(address);
  if (kind !== 6) return { address: ipAddress, range: ipAddress };
  const groups = ipv6Groups(address);
  // An IPv4-mapped address (::ffff:a.b.c.d in any spelling) is that IPv4 client.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return ipv4Prefixes(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
  }
  const hex = (count: number) =>
    groups
      .slice(0, count)
      .map((group) => group.toString(16))
      .join(':');
  return { address: `${hex(4)}::/64`, range: `${hex(3)}::/48` };
}

function ipv4Prefixes(address: string): AddressPrefixes {
  const octets = address.split('.');
  return { address, range: `${octets.slice(0, 3).join('.')}.0/24` };
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, embedded IPv4 as hex). */
function ipv6Groups(address: string): number[] {
  // The URL parser spells every IPv6 address one way: compressed, lower-case hex, no IPv4 tail.
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::') as [string, string | undefined];
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const [before, after] = [parse(head), parse(tail ?? '')];
  if (tail === undefined) return before;
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}
