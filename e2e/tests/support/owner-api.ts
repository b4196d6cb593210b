import type { Application, CurrentUser } from '@latchkey/contracts';
import { expect, type Page } from '@playwright/test';
import { consoleOriginHeaders } from './owners.ts';

type OwnerMethod = 'POST' | 'PUT' | 'PATCH';

/**
 * Calls the owner API as the owner signed in on `page` and expects it to succeed (201 for a
 * POST, 200 otherwise). page.request sends no Origin of its own, so the call names the console's.
 */
export async function ownerSend<T>(
  page: Page,
  method: OwnerMethod,
  path: string,
  data: unknown,
): Promise<T> {
  const response = await page.request.fetch(path, {
    method,
    headers: consoleOriginHeaders(page),
    data,
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(
    method === 'POST' ? 201 : 200,
  );
  return (await response.json()) as T;
}

export function ownerPost<T>(page: Page, path: string, data: unknown): Promise<T> {
  return ownerSend<T>(page, 'POST', path, data);
}

export function ownerPut<T>(page: Page, path: string, data: unknown): Promise<T> {
  return ownerSend<T>(page, 'PUT', path, data);
}

/** Reads the owner API as the owner signed in on `page` and expects a 200. */
export async function ownerGet<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.status(), `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

/** A new application of the owner signed in on `page`, through the owner API. */
export function createApplication(
  page: Page,
  name: string,
  description?: string,
): Promise<Application> {
  return ownerPost<Application>(page, '/api/applications', {
    name,
    ...(description === undefined ? {} : { description }),
  });
}

/** The account signed in on `page`, with its role and permissions. */
export function currentUser(page: Page): Promise<CurrentUser> {
  return ownerGet<CurrentUser>(page, '/api/auth/user');
}

/** As the site owner signed in on `ownerPage`: sets `account`'s role, permissions and state. */
export function updateAccount(
  ownerPage: Page,
  accountId: string,
  access: { role: string; permissions: string[]; isActive: boolean },
): Promise<unknown> {
  return ownerSend(ownerPage, 'PATCH', `/api/admin/users/${accountId}`, access);
}
