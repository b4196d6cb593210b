import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { apiRequest, getQueryFn, requestEarly } from './api.ts';
import { takeEarlyResponse, whenEarlyRequestsTaken } from './early-requests.ts';

const queryFn = getQueryFn<unknown>({ on401: 'throw' });

function runQuery(url: string) {
  return queryFn({ queryKey: [url], signal: new AbortController().signal } as never);
}

describe('early requests', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends each URL once, and the query of that URL takes the answer instead of asking again', async () => {
    let served = 0;
    const sent: RequestInit[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push(init);
      return jsonResponse(200, { served: ++served });
    });
    localStorage.setItem('account_id', 'account-1');

    requestEarly(['/api/dashboard/stats']);
    requestEarly(['/api/dashboard/stats']);
    expect(sent).toHaveLength(1);
    // Sent as the query would send it: the stored account named, the cookie included.
    expect(new Headers(sent[0]?.headers).get('x-account-id')).toBe('account-1');
    expect(sent[0]?.credentials).toBe('include');

    expect(await runQuery('/api/dashboard/stats')).toEqual({ served: 1 });
    expect(sent).toHaveLength(1);
    // Taken once: the next query sees the server as it is then.
    expect(await runQuery('/api/dashboard/stats')).toEqual({ served: 2 });
    expect(sent).toHaveLength(2);
  });

  it('also answers a GET through apiRequest, but never a request that changes something', async () => {
    const sent = stubOwnerApi(({ method }) => jsonResponse(200, { method }));
    requestEarly(['/api/applications']);

    await apiRequest('POST', '/api/applications', { name: 'Orbit' });
    expect(sent.map(({ method }) => method)).toEqual(['GET', 'POST']);
    const response = await apiRequest('GET', '/api/applications');
    expect(await response.json()).toEqual({ method: 'GET' });
    expect(sent).toHaveLength(2);
  });

  it('ignores an answer asked for too long ago, and then no longer holds anyone up', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    stubOwnerApi(() => jsonResponse(200, {}));
    requestEarly(['/api/dashboard/sales']);
    let isEveryRequestTaken = false;
    void whenEarlyRequestsTaken().then(() => {
      isEveryRequestTaken = true;
    });

    await vi.advanceTimersByTimeAsync(10_001);
    expect(isEveryRequestTaken).toBe(true);
    expect(takeEarlyResponse('/api/dashboard/sales')).toBeUndefined();
  });

  it('tells when the page has taken every early answer', async () => {
    stubOwnerApi(() => jsonResponse(200, {}));
    requestEarly(['/api/auth/user', '/api/applications']);
    let isEveryRequestTaken = false;
    void whenEarlyRequestsTaken().then(() => {
      isEveryRequestTaken = true;
    });

    await runQuery('/api/auth/user');
    await Promise.resolve();
    expect(isEveryRequestTaken).toBe(false);
    await runQuery('/api/applications');
    await vi.waitFor(() => expect(isEveryRequestTaken).toBe(true));
  });
});
