import { clientApiHeaders, type Application, type ClientAuthResponse } from '@latchkey/contracts';
import { expect, type APIResponse, type Page } from '@playwright/test';

/** The password of the end users registerEndUsers creates. */
export const END_USER_PASSWORD = 'battery staple';

/**
 * Calls the public client API as a vendor's program would: no session, just the API key. The
 * answer as it comes, for a test that reads the status itself.
 */
export function clientPost(
  page: Page,
  application: Pick<Application, 'apiKey'>,
  path: string,
  data: Record<string, unknown>,
): Promise<APIResponse> {
  return page.request.post(`/api/v1/${path}`, {
    headers: { [clientApiHeaders.apiKey]: application.apiKey },
    data,
  });
}

/**
 * A client call whose outcome is data: HTTP 200 (a refusal too, with `success: false`), the
 * body parsed.
 */
export async function clientCall<T = ClientAuthResponse>(
  page: Page,
  application: Pick<Application, 'apiKey'>,
  path: string,
  data: Record<string, unknown>,
): Promise<T> {
  const response = await clientPost(page, application, path, data);
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/**
 * Registers each of `usernames` through the client API, with an e-mail address, the password
 * END_USER_PASSWORD and a HWID of its own (`PC-` and the name in capitals).
 */
export async function registerEndUsers(
  page: Page,
  application: Pick<Application, 'apiKey'>,
  usernames: readonly string[],
): Promise<void> {
  for (const username of usernames) {
    expect(
      await clientCall(page, application, 'register', {
        username,
        email: `${username}@example.com`,
        password: END_USER_PASSWORD,
        hwid: `PC-${username.toUpperCase()}`,
      }),
    ).toMatchObject({ success: true });
  }
}
