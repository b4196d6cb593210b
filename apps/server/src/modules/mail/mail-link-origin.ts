import type { Config } from '../../config.ts';

/**
 * Where links in mail point: PUBLIC_ORIGIN, or in development without it this server's own
 * address. The worker that sends has no request to take an origin from.
 */
export function mailLinkOrigin(config: Pick<Config, 'publicOrigin' | 'port'>): string {
  return config.publicOrigin ?? `http://localhost:${config.port}`;
}
