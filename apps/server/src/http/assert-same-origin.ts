import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { forbidden } from '../lib/errors.ts';

/**
 * CSRF defence for cookie-authenticated mutations, on top of SameSite=Lax. A request must
 * prove it comes from the console's own page: an allowed Origin, or (browsers that omit
 * Origin) `Sec-Fetch-Site: same-origin`. A request proving neither is refused rather than
 * trusted, because a missing header is exactly what an old or odd client would send.
 */
export function assertSameOrigin(request: FastifyRequest, config: Config): void {
  const fetchSite = request.headers['sec-fetch-site'];
  // same-site is refused too: a sibling subdomain is not the console.
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
    throw forbidden('Cross-site request refused');
  }
  const origin = request.headers.origin;
  if (origin === undefined) {
    if (fetchSite === 'same-origin') return;
    throw forbidden('Request refused: it carries no Origin header');
  }
  // Without PUBLIC_ORIGIN (never in production) the server's own origin is the allowed one.
  const allowedOrigin =
    config.publicOrigin ?? normalizedOrigin(`${request.protocol}://${request.host}`);
  const requestOrigin = normalizedOrigin(origin);
  if (requestOrigin === null || requestOrigin !== allowedOrigin) {
    throw forbidden('Cross-origin request refused');
  }
}

/** `http://localhost:80` and `http://localhost` are one origin; `null` and garbage are none. */
function normalizedOrigin(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
