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

/**
 * The named parameters of a mailed link's query, read once; the whole query then leaves the
 * address bar, for the same reason as a token. A parameter the address lacks is null.
 */
export function takeLinkQuery<Name extends string>(
  names: readonly Name[],
): Record<Name, string | null> {
  const url = new URL(window.location.href);
  const values = Object.fromEntries(
    names.map((name) => [name, url.searchParams.get(name)]),
  ) as Record<Name, string | null>;
  if (url.search !== '') window.history.replaceState(null, '', url.pathname + url.hash);
  return values;
}
