import type { CookieSerializeOptions } from '@fastify/cookie';
import { PORTAL_SESSION_MINUTES } from '@latchkey/contracts';

/**
 * The portal's own session cookie, apart from the owner's in every way: another name, the
 * portal's API path only (so the browser never sends it to the owner API, the client API or
 * another application's portal), SameSite=Strict, and short-lived. In production `__Secure-`
 * makes the browser refuse it without Secure (`__Host-` would need Path=/).
 */
export function portalCookieName(isProduction: boolean): string {
  return isProduction ? '__Secure-latchkey_portal' : 'latchkey_portal';
}

export const portalApiPath = (publicId: string) => `/api/portal/${publicId}`;

export function portalCookieOptions(
  isProduction: boolean,
  publicId: string,
): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    secure: isProduction,
    path: portalApiPath(publicId),
    maxAge: PORTAL_SESSION_MINUTES * 60,
  };
}
