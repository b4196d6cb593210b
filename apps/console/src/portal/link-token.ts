/**
 * The `?token=` of a mailed link's page, read once and then taken out of the address bar, so
 * the bearer token stays out of the browser's history and of anything the page links to.
 * Null when the address carries none.
 */
export function takeLinkToken(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token !== null) {
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  return token;
}
