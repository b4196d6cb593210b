import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { normalizeIpAddress } from '../../lib/client-ip.ts';

const IPV4_MAPPED_RANGE = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * The one spelling an IP entry (an address or a CIDR range the request schema accepted) is
 * stored in, so that duplicates are found and the client API's comparison holds:
 * - an address is spelled as client addresses are (normalizeIpAddress);
 * - a range becomes its network address (10.1.2.3/8 is 10.0.0.0/8, 2001:DB8::1/64 is
 *   2001:db8::/64), the form PostgreSQL's cidr type, which matches ranges, requires; the
 *   database computes it, so what is stored is exactly what it matches;
 * - a range of one address (/32, /128) is that address, found by the exact lookup;
 * - an IPv4-mapped IPv6 range of /96 or longer is the IPv4 range it maps, because client
 *   addresses arrive with mapped IPv4 already unwrapped.
 */
export async function normalizeBlacklistIp(db: Database, value: string): Promise<string> {
  const slash = value.indexOf('/');
  if (slash === -1) return normalizeIpAddress(value);
  let address = value.slice(0, slash);
  let prefixLength = Number(value.slice(slash + 1));
  const mapped = IPV4_MAPPED_RANGE.exec(address);
  if (mapped && prefixLength >= 96) {
    address = mapped[1]!;
    prefixLength -= 96;
  }
  const isIpv4 = !address.includes(':');
  if (prefixLength === (isIpv4 ? 32 : 128)) return normalizeIpAddress(address);
  const [row] = await db
    .select({ network: sql<string>`network(${`${address}/${prefixLength}`}::inet)::text` })
    .from(sql`(select 1) as one`);
  if (!row) throw new Error('select returned no row');
  return row.network;
}
