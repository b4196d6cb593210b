/** The query parameter of /firebase-login that says where a deep link was going. */
export const NEXT_PARAM = 'next';

const SIGN_IN_PATH = '/firebase-login';

/** Where a signed-out visit to `target` (a path with its query) is sent to sign in first. */
export function buildSignInPath(target: string): string {
  return `${SIGN_IN_PATH}?${new URLSearchParams({ [NEXT_PARAM]: target }).toString()}`;
}

/**
 * The `next` target of a sign-in page's query, if it is a path on this site. Anything else
 * (`//evil.example`, `/\evil.example`, `https://...`, `javascript:`) is refused: the parameter
 * is in a link anyone can send, and following it blindly would make the sign-in page an open
 * redirect.
 */
export function readSafeNextPath(search: string, origin = window.location.origin): string | null {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname === SIGN_IN_PATH) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
