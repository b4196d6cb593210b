import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.ts';

/**
 * The SSRF guard: a webhook is a request our server makes to a URL an owner chose, so it
 * must never reach our own host, the networks behind it or a cloud metadata endpoint.
 * Checked when a webhook is saved (checkWebhookDestination) and again on every connection
 * the delivery engine opens (guardedLookup), because DNS can change between the two.
 */

/**
 * What an address is, as far as the guard cares. `special` is everything that is neither
 * ordinary public unicast nor one of the named classes: unspecified, broadcast, multicast,
 * reserved and documentation ranges, and IPv6 forms that embed or translate IPv4 (NAT64,
 * 6to4, Teredo, IPv4-compatible), which could lead back to a refused IPv4 address.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'special';

export interface DestinationPolicy {
  /** Outside production only: a vendor may test against a receiver on their own machine. */
  isLoopbackAllowed: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7. */
  isPrivateNetworkAllowed: boolean;
  /** Every address of a host name; dns.lookup unless a test supplies its own resolver. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

/**
 * Link-local (169.254.169.254 is the metadata service of most clouds) and special addresses
 * are refused in every mode and by no flag: no legitimate receiver lives there.
 */
export function destinationPolicyFor(config: {
  isProduction: boolean;
  webhooks: Pick<Config['webhooks'], 'allowPrivateNetworks'>;
}): DestinationPolicy {
  return {
    isLoopbackAllowed: !config.isProduction,
    isPrivateNetworkAllowed: config.webhooks.allowPrivateNetworks,
  };
}

const ipv4Classes: Record<string, AddressClass> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private',
  linkLocal: 'link-local',
};
const ipv6Classes: Record<string, AddressClass> = {
  unicast: 'public',
  loopback: 'loopback',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'link-local',
};

/**
 * The WHATWG URL parser's spelling of an IPv6 address (`::7f00:1`), which is also what a
 * socket sees. ipaddr.js reads a dotted tail as IPv4-mapped (`::127.0.0.1` as
 * `::ffff:127.0.0.1`), so it only ever gets this form. Null for what URLs refuse (zones).
 */
function canonicalIpv6(address: string): string | null {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** Classifies an IP address (IPv4-mapped IPv6 counts as the IPv4 address it maps). */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // net.isIP is strict; ipaddr.js alone would also take forms like '0x7f.1' or '127.1'.
  const family = isIP(bare);
  if (family === 0) return 'special';
  const canonical = family === 6 ? canonicalIpv6(bare) : bare;
  if (canonical === null) return 'special';
  const parsed = ipaddr.process(canonical);
  if (parsed instanceof ipaddr.IPv4) return ipv4Classes[parsed.range()] ?? 'special';
  // ::/96 beyond :: and ::1 is the deprecated IPv4-compatible form (::127.0.0.1).
  const isIpv4Compatible = parsed.parts.slice(0, 6).every((part) => part === 0);
  const range = parsed.range();
  if (isIpv4Compatible && range !== 'loopback') return 'special';
  return ipv6Classes[range] ?? 'special';
}

/** localhost and its subdomains (RFC 6761) are loopback whatever a resolver says. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === 'localhost.localdomain' ||
    name === 'ip6-localhost' ||
    name === 'ip6-loopback'
  );
}

export function isAddressClassAllowed(addressClass: AddressClass, policy: DestinationPolicy) {
  switch (addressClass) {
    case 'public':
      return true;
    case 'loopback':
      return policy.isLoopbackAllowed;
    case 'private':
      return policy.isPrivateNetworkAllowed;
    case 'link-local':
    case 'special':
      return false;
  }
}

const classDescriptions: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  special: 'a reserved or special-purpose address',
};

export type DestinationVerdict =
  | {
      isAllowed: true;
      /** The addresses checked; empty when the name did not resolve (delivery checks again). */
      addresses: string[];
    }
  | { isAllowed: false; reason: string };

/** The refusal text; the addresses stay out of it, so it cannot be used to map our DNS. */
const reasonFor = (addressClass: Exclude<AddressClass, 'public'>) =>
  `This webhook URL points to ${classDescriptions[addressClass]}, which is not allowed`;

const refusal = (addressClass: AddressClass): DestinationVerdict => ({
  isAllowed: false,
  reason: reasonFor(addressClass === 'public' ? 'special' : addressClass),
});

/** A slow resolver must not hold a save for long; an unanswered name is checked at delivery. */
const SAVE_TIME_LOOKUP_TIMEOUT_MS = 3000;

const lookupAll = (hostname: string) => dns.lookup(hostname, { all: true });

async function resolveWithin(
  policy: DestinationPolicy,
  hostname: string,
  timeoutMs: number,
): Promise<LookupAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<LookupAddress[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs);
  });
  try {
    return await Promise.race([(policy.resolve ?? lookupAll)(hostname), timeout]);
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/** The host of a URL without IPv6 brackets. */
function hostOf(url: URL): string {
  const { hostname } = url;
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Save-time check of a webhook URL's host: an address literal is classified, a name is
 * resolved and refused if ANY of its addresses is refused (a client may connect to any).
 * A name that does not resolve (yet) is accepted: it cannot be aimed anywhere now, and the
 * engine's guardedLookup checks whatever it resolves to when a delivery connects.
 */
export async function checkWebhookDestination(
  url: string | URL,
  policy: DestinationPolicy,
): Promise<DestinationVerdict> {
  const target = typeof url === 'string' ? new URL(url) : url;
  const verdict = checkWebhookDestinationWithoutDns(target, policy);
  if (verdict) return verdict;
  const addresses = await resolveWithin(policy, hostOf(target), SAVE_TIME_LOOKUP_TIMEOUT_MS);
  for (const { address } of addresses) {
    const addressClass = classifyAddress(address);
    if (!isAddressClassAllowed(addressClass, policy)) return refusal(addressClass);
  }
  return { isAllowed: true, addresses: addresses.map(({ address }) => address) };
}

/**
 * The part of the check that needs no DNS: an address literal or a localhost name gets its
 * verdict; any other host name gets null. At delivery time that is all the dispatcher checks
 * first: connecting resolves the name once, through guardedLookup, which applies the policy
 * to the addresses it connects to (resolving here too would only ask DNS twice).
 */
export function checkWebhookDestinationWithoutDns(
  url: URL,
  policy: DestinationPolicy,
): DestinationVerdict | null {
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const addressClass = classifyAddress(host);
    return isAddressClassAllowed(addressClass, policy)
      ? { isAllowed: true, addresses: [host] }
      : refusal(addressClass);
  }
  if (isLocalhostName(host)) {
    return policy.isLoopbackAllowed ? { isAllowed: true, addresses: [] } : refusal('loopback');
  }
  return null;
}

/** The error code a refused connection fails with (the engine records it as the attempt's error). */
export const DESTINATION_REFUSED = 'EWEBHOOKDESTINATION';

/**
 * A drop-in `lookup` for http(s).request / net.connect: resolves the name, refuses the
 * connection if any address is refused, and hands the checked addresses to the socket, so
 * the address connected to is the one checked. Node skips `lookup` for address literals:
 * the engine must pass those URLs through checkWebhookDestinationWithoutDns first.
 */
export function guardedLookup(policy: DestinationPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const fail = (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : '');
    const refuse = (addressClass: Exclude<AddressClass, 'public'>) =>
      fail(
        Object.assign(new Error(reasonFor(addressClass)), { code: DESTINATION_REFUSED, hostname }),
      );
    if (isLocalhostName(hostname) && !policy.isLoopbackAllowed) {
      refuse('loopback');
      return;
    }
    (policy.resolve ?? lookupAll)(hostname).then(
      (addresses) => {
        for (const { address } of addresses) {
          const addressClass = classifyAddress(address);
          if (addressClass !== 'public' && !isAddressClassAllowed(addressClass, policy)) {
            refuse(addressClass);
            return;
          }
        }
        const family =
          options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
        const [first] = usable;
        if (!first) {
          fail(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
              code: 'ENOTFOUND',
              hostname,
            }),
          );
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => fail(error),
    );
  };
}
