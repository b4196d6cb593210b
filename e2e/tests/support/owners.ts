import { randomUUID } from 'node:crypto';
import { expect, type Browser, type Page } from '@playwright/test';

export interface GoogleAccount {
  sub: string;
  email: string;
  name: string;
}

/** A Google account no other test uses (one emulator serves the whole run). */
export function newGoogleAccount(name = 'Test Owner'): GoogleAccount {
  const id = randomUUID().slice(0, 8);
  return { sub: `e2e-${id}`, email: `owner-${id}@example.com`, name };
}

/**
 * Signs in from the real sign-in page through the real Firebase SDK and Auth emulator.
 * The Google popup itself needs apis.google.com (unreachable here), so the console exposes,
 * only when it talks to the emulator, a hook that signs in with a Google credential; the
 * rest of the flow (backend exchange, toast, redirect) is the popup's own code path.
 */
export async function signInWithGoogle(page: Page, account: GoogleAccount): Promise<void> {
  await page.goto('/firebase-login');
  await signInOnThisPage(page, account);
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
}

/**
 * Signs in on the sign-in page the browser is on, keeping its query (the `next` target), and
 * returns once the console says so, before its redirect.
 */
export async function signInOnThisPage(page: Page, account: GoogleAccount): Promise<void> {
  // The sign-in card's heading: its greeting, or its words to a deep link going on.
  await expect(
    page.getByRole('heading', { name: /^(Create Your Account|Sign In to Continue)$/ }),
  ).toBeVisible();
  await page.waitForFunction(() => window.__latchkeyEmulator !== undefined);
  await page.evaluate(
    (claims) => window.__latchkeyEmulator!.signInWithGoogleClaims(claims),
    account,
  );
  await expect(page.getByText('Login successful! Redirecting...', { exact: true })).toBeVisible();
}

/** Signs in and returns the page ready on the home page. */
export async function signInAsNewOwner(page: Page, name = 'Test Owner'): Promise<GoogleAccount> {
  const account = newGoogleAccount(name);
  await signInWithGoogle(page, account);
  return account;
}

/**
 * Headers for owner API calls made through page.request: unlike the console's own fetch,
 * Playwright's request context sends no Origin, and the server refuses a cookie-authenticated
 * change that does not prove it comes from the console.
 */
export function consoleOriginHeaders(page: Page): Record<string, string> {
  return { origin: new URL(page.url()).origin };
}

/**
 * A page in a browser of its own: a new context, sharing no cookies or storage with the test's
 * page (a context rather than browser.newPage(), whose pages axe cannot analyse).
 */
export async function pageOfItsOwn(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** Runs `work` on a page in a browser of its own, which is closed afterwards. */
export async function inBrowserOfItsOwn<T>(
  browser: Browser,
  work: (page: Page) => Promise<T>,
): Promise<T> {
  const page = await pageOfItsOwn(browser);
  try {
    return await work(page);
  } finally {
    await page.context().close();
  }
}
