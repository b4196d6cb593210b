import ipaddr from 'ipaddr.js';

/**
 * Whether `address` is in an allowlist of addresses and CIDR ranges, IPv4 and IPv6.
 * An IPv4 client seen through an IPv6 socket (`::ffff:203.0.113.7`) is matched as the IPv4
 * address it is. An entry that does not parse matches nothing (they are validated on input).
 */
export function isAddressAllowed(address: string, allowlist: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const client = ipaddr.process(address);
  return allowlist.some((entry) => {
    try {
      const [range, bits] = entry.includes('/')
        ? ipaddr.parseCIDR(entry)
        : (() => {
            const single = ipaddr.process(entry);
            return [single, single.kind() === 'ipv4' ? 32 : 128] as const;
          })();
      const network = range.kind() === 'ipv6' ? ipaddr.process(range.toString()) : range;
      if (network.kind() !== client.kind()) return false;
      // A v4-mapped range (::ffff:0:0/96 and narrower) was turned into IPv4 above: its bits too.
      const prefix =
        network.kind() === 'ipv4' && range.kind() === 'ipv6' ? Math.max(0, bits - 96) : bits;
      return client.match(network, prefix);
    } catch {
      return false;
    }
  });
}
