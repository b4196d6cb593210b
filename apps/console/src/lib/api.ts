import type { QueryFunction } from '@tanstack/react-query';
import { readStoredAccountId } from './account-storage.ts';
import { startEarlyRequests, takeEarlyResponse } from './early-requests.ts';

/**
 * A non-OK answer from our server. The message is `${status}: ${body || statusText}`; `status`
 * lets callers branch without parsing it.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyText = bodyText;
  }

  /** The `message` of the server's `{ message, code }` error body, when it sent one. */
  get serverMessage(): string | null {
    const body = this.jsonBody();
    if (body && 'message' in body) {
      const { message } = body;
      if (typeof message === 'string' && message !== '') return message;
    }
    return null;
  }

  /**
   * The refused fields of a 400's body (`fields`: each field's path and its problem in words),
   * for a form to mark; empty for any other answer.
   */
  get fieldProblems(): { field: string; message: string }[] {
    const body = this.jsonBody();
    const fields: unknown = body && 'fields' in body ? body.fields : undefined;
    if (!Array.isArray(fields)) return [];
    return fields.filter(
      (problem): problem is { field: string; message: string } =>
        typeof problem === 'object' &&
        problem !== null &&
        typeof (problem as { field?: unknown }).field === 'string' &&
        typeof (problem as { message?: unknown }).message === 'string',
    );
  }

  private jsonBody(): object | null {
    try {
      const body: unknown = JSON.parse(this.bodyText);
      return typeof body === 'object' && body !== null ? body : null;
    } catch {
      // not JSON: there is nothing of the server's to show
      return null;
    }
  }
}

export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** The message to put in an error toast: the server's own words, else the given fallback. */
export function getErrorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? (error.serverMessage ?? fallback) : fallback;
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const bodyText = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, bodyText);
}

function buildHeaders(hasBody: boolean): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (hasBody) headers.set('Content-Type', 'application/json');
  const accountId = readStoredAccountId();
  if (accountId) headers.set('x-account-id', accountId);
  return headers;
}

/** What every GET of our server sends: the same for an early request as for the query. */
function getInit(): RequestInit {
  return { headers: buildHeaders(false), credentials: 'include' };
}

/**
 * Asks for `urls` now, before the queries that read them exist (see early-requests.ts); a
 * query or `apiRequest('GET', …)` of the same URL soon after takes the answer.
 */
export function requestEarly(urls: readonly string[]): void {
  startEarlyRequests(urls, getInit());
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Calls our own server with JSON and the session cookie; throws ApiError on any non-OK status. */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
): Promise<Response> {
  const hasBody = body !== undefined;
  const early = method === 'GET' && !hasBody ? takeEarlyResponse(url) : undefined;
  const response = await (early ??
    fetch(url, {
      method,
      headers: buildHeaders(hasBody),
      body: hasBody ? JSON.stringify(body) : undefined,
      credentials: 'include',
    }));
  await throwIfNotOk(response);
  return response;
}

/** Anything with zod's `parse`, so responses are checked against the shared contracts. */
export interface ResponseParser<T> {
  parse(data: unknown): T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

export function getQueryFn<T>(options: {
  on401: 'returnNull';
  schema?: ResponseParser<T>;
}): QueryFunction<T | null>;
export function getQueryFn<T>(options: {
  on401: 'throw';
  schema?: ResponseParser<T>;
}): QueryFunction<T>;
/** A TanStack query function whose first query-key element is the URL to GET. */
export function getQueryFn<T>({
  on401,
  schema,
}: {
  on401: UnauthorizedBehavior;
  schema?: ResponseParser<T>;
}): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const [url] = queryKey;
    if (typeof url !== 'string') throw new TypeError('The first query key element must be a URL');
    const response = await (takeEarlyResponse(url) ?? fetch(url, { ...getInit(), signal }));
    if (on401 === 'returnNull' && response.status === 401) return null;
    await throwIfNotOk(response);
    const data: unknown = await response.json();
    return schema ? schema.parse(data) : (data as T);
  };
}
