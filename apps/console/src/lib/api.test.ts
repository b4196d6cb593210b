import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, getErrorMessage, getQueryFn } from './api.ts';

function stubFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function sentHeaders(fetchMock: ReturnType<typeof stubFetch>): Headers {
  const init = fetchMock.mock.calls[0]?.[1];
  return new Headers(init?.headers);
}

describe('apiRequest', () => {
  beforeEach(() => localStorage.clear());

  it('sends JSON with cookies and the stored account id', async () => {
    localStorage.setItem('account_id', 'acc_42');
    const fetchMock = stubFetch(new Response('{}', { status: 200 }));

    await apiRequest('POST', '/api/applications', { name: 'Demo' });

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/applications');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"name":"Demo"}');
    const headers = sentHeaders(fetchMock);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('x-account-id')).toBe('acc_42');
  });

  it('omits x-account-id and the body when there is none', async () => {
    const fetchMock = stubFetch(new Response('{}', { status: 200 }));

    await apiRequest('DELETE', '/api/applications/1');

    expect(fetchMock.mock.calls[0]?.[1]?.body).toBeUndefined();
    expect(sentHeaders(fetchMock).has('x-account-id')).toBe(false);
    expect(sentHeaders(fetchMock).has('content-type')).toBe(false);
  });

  it('turns a non-OK answer into "status: body"', async () => {
    const body = '{"message":"Application not found","code":"NOT_FOUND"}';
    stubFetch(new Response(body, { status: 404, statusText: 'Not Found' }));

    const error = await apiRequest('GET', '/api/applications/9').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`404: ${body}`);
    expect((error as ApiError).status).toBe(404);
    expect(getErrorMessage(error, 'Failed to delete application')).toBe('Application not found');
  });

  it('falls back to the status text when the body is empty', async () => {
    stubFetch(new Response('', { status: 502, statusText: 'Bad Gateway' }));

    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('502: Bad Gateway');
  });

  it('uses the fallback message for errors without a server message', () => {
    expect(getErrorMessage(new ApiError(500, 'Internal Server Error', 'oops'), 'Failed')).toBe(
      'Failed',
    );
    expect(getErrorMessage(new TypeError('network down'), 'Failed')).toBe('Failed');
  });
});

describe('getQueryFn', () => {
  const context = (url: string) => ({
    client: new QueryClient(),
    queryKey: [url],
    signal: new AbortController().signal,
    meta: undefined,
  });

  it('throws on 401 by default', async () => {
    stubFetch(
      new Response('{"message":"Not signed in","code":"UNAUTHENTICATED"}', { status: 401 }),
    );
    const queryFn = getQueryFn({ on401: 'throw' });

    await expect(queryFn(context('/api/auth/user'))).rejects.toThrow(/^401: /);
  });

  it('returns null on 401 when asked to', async () => {
    stubFetch(new Response('', { status: 401, statusText: 'Unauthorized' }));
    const queryFn = getQueryFn({ on401: 'returnNull' });

    await expect(queryFn(context('/api/auth/user'))).resolves.toBeNull();
  });

  it('GETs the first query key element and parses the JSON with the schema', async () => {
    localStorage.setItem('account_id', 'acc_7');
    const fetchMock = stubFetch(Response.json({ count: 3 }));
    const schema = { parse: (data: unknown) => ({ ...(data as { count: number }), parsed: true }) };
    const queryFn = getQueryFn({ on401: 'throw', schema });

    await expect(queryFn(context('/api/dashboard/stats'))).resolves.toEqual({
      count: 3,
      parsed: true,
    });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/dashboard/stats');
    expect(fetchMock.mock.calls[0]?.[1]?.credentials).toBe('include');
    expect(sentHeaders(fetchMock).get('x-account-id')).toBe('acc_7');
  });
});
