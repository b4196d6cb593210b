/**
 * The portal's public id from the page's path, `/portal/:publicId`; null when the path cannot
 * be a portal's (the page then says the portal is not available without asking the server).
 * The same shape as the contracts' PORTAL_PUBLIC_ID_PATTERN, kept here so the bundle needs
 * nothing of zod at run time.
 */
export function publicIdFromPath(pathname: string): string | null {
  const match = /^\/portal\/([0-9a-f]{20})\/?$/.exec(pathname);
  return match?.[1] ?? null;
}
