import { describe, expect, it, vi } from 'vitest';
import { CONNECTION_FAILED, createPortalApi, errorText, PortalApiError } from './portal-api.ts';

const PUBLIC_ID = '0123456789abcdef0123';

function respond(status: number, body?: unknown, headers: Record<string, string> = {}) {
  return vi.fn<typeof fetch>(async () =>
    body === undefined
      ? new Response(null, { status, headers })
      : new Response(typeof body === 'string' ? body : JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json', ...headers },
        }),
  );
}

describe('createPortalApi', () => {
  it('sends JSON to the portal’s own path with the page’s credentials', async () => {
    const fetchStub = respond(201, { username: 'pilot' });
    const account = await createPortalApi(PUBLIC_ID, fetchStub).signIn({
      username: 'pilot',
      password: 'secret',
    });
    expect(account).toEqual({ username: 'pilot' });
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe(`/api/portal/${PUBLIC_ID}/session`);
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'pilot', password: 'secret' }),
    });
  });

  it('sends a mailed link’s token to confirm an address, and reads whose it was', async () => {
    const fetchStub = respond(200, { username: 'pilot', email: 'pilot@example.com' });
    const confirmed = await createPortalApi(PUBLIC_ID, fetchStub).verifyEmail({ token: 'T' });
    expect(confirmed).toEqual({ username: 'pilot', email: 'pilot@example.com' });
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe(`/api/portal/${PUBLIC_ID}/email/verify`);
    expect(init).toMatchObject({ method: 'POST', body: JSON.stringify({ token: 'T' }) });
  });

  it('sends a stop link’s user and token in the query, with no body', async () => {
    const fetchStub = respond(204);
    const user = '0b8f2a4e-5c1d-4e7a-9f3b-2d6c8e1a4b7f';
    const token = 'ab'.repeat(32);
    await expect(
      createPortalApi(PUBLIC_ID, fetchStub).stopReminders({ user, token }),
    ).resolves.toBeUndefined();
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe(`/api/portal/${PUBLIC_ID}/reminders/stop?user=${user}&token=${token}`);
    expect(init?.method).toBe('POST');
    expect(init?.body).toBeUndefined();
  });

  it('sends no body and no content type without one, and reads a 204 as nothing', async () => {
    const fetchStub = respond(204);
    await expect(createPortalApi(PUBLIC_ID, fetchStub).signOut()).resolves.toBeUndefined();
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe(`/api/portal/${PUBLIC_ID}/session`);
    expect(init?.method).toBe('DELETE');
    expect(init?.body).toBeUndefined();
    expect(init?.headers).not.toHaveProperty('content-type');
  });

  it('turns an error answer into a PortalApiError with the server’s message', async () => {
    const api = createPortalApi(
      PUBLIC_ID,
      respond(409, { message: 'You released a device recently', code: 'CONFLICT' }),
    );
    const error = await api.releaseDevice('d1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PortalApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: 'You released a device recently',
    });
    expect(errorText(error)).toBe('You released a device recently');
  });

  it('adds the wait from Retry-After to a throttled answer', async () => {
    const api = createPortalApi(
      PUBLIC_ID,
      respond(
        429,
        { message: 'Too many failed login attempts', code: 'RATE_LIMITED' },
        { 'retry-after': '42' },
      ),
    );
    const error = await api.signIn({ username: 'a', password: 'b' }).catch((caught) => caught);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 42 });
    expect(errorText(error)).toBe(
      'Too many failed login attempts. Please wait 42 seconds, then try again.',
    );
  });

  it('words an answer that is not JSON, and a lost connection, for the reader', async () => {
    const badGateway = createPortalApi(PUBLIC_ID, respond(502, '<html>Bad gateway</html>'));
    expect(errorText(await badGateway.account().catch((caught) => caught))).toBe(
      'Something went wrong (HTTP 502): please try again.',
    );
    const offline = createPortalApi(
      PUBLIC_ID,
      vi.fn<typeof fetch>(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await offline.account().catch((caught) => caught);
    expect(error).toMatchObject({ status: 0, message: CONNECTION_FAILED });
  });

  it('knows a 401 as the end of the session', () => {
    expect(new PortalApiError(401, 'x').isSessionEnded).toBe(true);
    expect(new PortalApiError(403, 'x').isSessionEnded).toBe(false);
  });
});
