import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyRequest } from 'fastify';

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * One spelling per address, so a blacklist entry and a client address compare equal:
 * IPv4-mapped IPv6 (::ffff:1.2.3.4, what a dual-stack socket reports) becomes plain IPv4,
 * and IPv6 is lower-cased and compressed (2001:DB8:0::1 -> 2001:db8::1).
 */
export function normalizeIpAddress(address: string): string {
  if (!address.includes(':')) return address;
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) === 6) {
    try {
      return new URL(`http://[${address}]`).hostname.slice(1, -1);
    } catch {
      // Zone ids (fe80::1%eth0) are valid addresses but not valid URL hosts.
    }
  }
  return address.toLowerCase();
}

/**
 * The client's address: the socket's peer, unless TRUST_PROXY_HOPS lets that many proxies
 * speak for it through X-Forwarded-For (Fastify's trustProxy, wired in app.ts).
 */
export function clientIpOf(request: FastifyRequest): string {
  return normalizeIpAddress(request.ip);
}

/** Fastify's trustProxy (app.ts): the nearest `hops` proxies may speak for the client. */
export const trustNearestProxies =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

/**
 * `clientIpOf` for a request Fastify has not wrapped (the lean v1 path): the same address,
 * by the same trust rule and the same library Fastify's `request.ip` uses.
 */
export function clientIpFinder(trustProxyHops: number): (request: IncomingMessage) => string {
  if (trustProxyHops === 0) {
    return (request) => normalizeIpAddress(request.socket.remoteAddress ?? '');
  }
  const trust = trustNearestProxies(trustProxyHops);
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return normalizeIpAddress(addresses[addresses.length - 1] ?? '');
  };
}
