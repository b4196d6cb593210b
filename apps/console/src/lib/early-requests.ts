/**
 * GETs sent before the code that reads their answers has loaded. A signed-in page's first
 * screen waits on a chain: its JavaScript, then the owner's profile, then the page's own data.
 * Asked for as the console starts instead, the answers travel while the page's code downloads,
 * and the query that wants one takes it instead of asking again.
 *
 * An answer is taken once, and only while it is fresh: a query run later (a refresh, a
 * mutation's invalidation) must see the server as it is then.
 */
const FRESH_FOR_MS = 10_000;

interface EarlyRequest {
  response: Promise<Response>;
  startedAt: number;
}

const requests = new Map<string, EarlyRequest>();
const waitingForAllTaken = new Set<() => void>();

function forget(url: string): void {
  requests.delete(url);
  if (requests.size > 0) return;
  for (const resolve of waitingForAllTaken) resolve();
  waitingForAllTaken.clear();
}

/**
 * Starts a GET of each URL with `init` (the headers and credentials the query would send).
 * A failure is not reported here: the query that takes the answer sees it.
 */
export function startEarlyRequests(urls: readonly string[], init: RequestInit): void {
  for (const url of urls) {
    if (requests.has(url)) continue;
    const response = fetch(url, init);
    // Nobody may ever take it (the page changed meanwhile): an unread failure is no error.
    response.catch(() => {});
    requests.set(url, { response, startedAt: Date.now() });
    // Untaken, it is forgotten once stale, so whoever waits for all to be taken is not stuck.
    setTimeout(() => {
      if (requests.get(url)?.response === response) forget(url);
    }, FRESH_FOR_MS);
  }
}

/**
 * Resolves once every early request has been taken by its query (or gone stale): the page that
 * asked for them has rendered and is reading its first screen's data.
 */
export function whenEarlyRequestsTaken(): Promise<void> {
  if (requests.size === 0) return Promise.resolve();
  return new Promise((resolve) => waitingForAllTaken.add(resolve));
}

/** The answer of an early GET of `url`, once, if one was started in the last few seconds. */
export function takeEarlyResponse(url: string): Promise<Response> | undefined {
  const request = requests.get(url);
  if (!request) return undefined;
  forget(url);
  return Date.now() - request.startedAt <= FRESH_FOR_MS ? request.response : undefined;
}

/** Drops every early request untaken: a test's leftovers must not answer the next test. */
export function forgetEarlyRequests(): void {
  for (const url of [...requests.keys()]) forget(url);
}
