const LINK_PAGES = ['reset', 'verify', 'unsubscribe'] as const;

/** Which page of a portal an address opens: its account page, or a mailed link's page. */
export interface PortalAddress {
  publicId: string;
  page: 'account' | (typeof LINK_PAGES)[number];
}

/**
 * The portal's public id and page from the page's path: `/portal/:publicId` (the account),
 * `/portal/:publicId/reset` (a mailed "choose a new password" link),
 * `/portal/:publicId/verify` (a mailed "confirm your address" link) or
 * `/portal/:publicId/unsubscribe` (an expiry reminder's stop link); null when the path
 * cannot be a portal's (the page then says the portal is not available without asking the
 * server). The same shape as the contracts' PORTAL_PUBLIC_ID_PATTERN, kept here so the
 * bundle needs nothing of zod at run time.
 */
export function portalAddressOf(pathname: string): PortalAddress | null {
  const match = /^\/portal\/([0-9a-f]{20})(?:\/|\/(reset|verify|unsubscribe))?$/.exec(pathname);
  if (!match) return null;
  const page = LINK_PAGES.find((name) => name === match[2]) ?? 'account';
  return { publicId: match[1]!, page };
}
