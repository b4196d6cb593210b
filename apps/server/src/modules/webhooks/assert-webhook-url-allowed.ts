import { isIP } from 'node:net';
import { refusedField } from '../../lib/errors.ts';
import {
  checkWebhookDestination,
  classifyAddress,
  isLocalhostName,
  type DestinationPolicy,
} from './destination-guard.ts';

export const WEBHOOK_HTTPS_REQUIRED = 'Webhook URLs must use https://';
export const WEBHOOK_HTTPS_REQUIRED_OUTSIDE_LOOPBACK =
  'Webhook URLs must use https:// (plain http:// is allowed only to localhost outside production)';

/** A literal loopback host: the only place an unencrypted delivery cannot be read in transit. */
function isLoopbackHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? isLocalhostName(host) : classifyAddress(host) === 'loopback';
}

/**
 * The server's half of URL validation (the contract has already trimmed it and checked it
 * is an http(s) URL): https only, except plain http to loopback when loopback is allowed
 * (outside production), and a destination the SSRF guard accepts. Throws a 400.
 */
export async function assertWebhookUrlAllowed(
  url: string,
  policy: DestinationPolicy,
): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') {
    if (!policy.isLoopbackAllowed) throw refusedField('BAD_REQUEST', 'url', WEBHOOK_HTTPS_REQUIRED);
    if (!isLoopbackHost(parsed)) {
      throw refusedField('BAD_REQUEST', 'url', WEBHOOK_HTTPS_REQUIRED_OUTSIDE_LOOPBACK);
    }
  }
  const verdict = await checkWebhookDestination(parsed, policy);
  if (!verdict.isAllowed) throw refusedField('BAD_REQUEST', 'url', verdict.reason);
}
