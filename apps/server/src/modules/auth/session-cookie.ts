import type { CookieSerializeOptions } from '@fastify/cookie';

/**
 * In production the cookie carries the __Host- prefix: the browser then refuses it unless it
 * is Secure, host-only and Path=/, so a sibling subdomain cannot plant or shadow a session.
 */
export function sessionCookieName(isProduction: boolean): string {
  return isProduction ? '__Host-latchkey_session' : 'latchkey_session';
}

export function sessionCookieOptions(
  isProduction: boolean,
  maxAgeMs: number,
): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: isProduction,
    path: '/',
    maxAge: Math.floor(maxAgeMs / 1000),
  };
}
