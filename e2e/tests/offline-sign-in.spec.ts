import type { RuntimeConfig } from '@latchkey/contracts';
import {
  checkLayout,
  expectTheme,
  forEachTheme,
  forEachViewport,
} from './support/layout-checks.ts';
import { blockTheInternet, startOwnServer } from './support/own-server.ts';
import { expect, test, type Page } from './support/test.ts';

async function readRuntimeConfig(page: Page): Promise<RuntimeConfig> {
  const response = await page.request.get('/api/config');
  expect(response.ok()).toBe(true);
  return (await response.json()) as RuntimeConfig;
}

/** Fills in the test-account form (opening it first) and sends it with Enter, from the keyboard. */
async function signInWithTestAccount(page: Page, name: string, email: string): Promise<void> {
  await page.goto('/firebase-login');
  await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
  const toggle = page.getByRole('button', { name: 'Sign in with a test account' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Login successful! Redirecting...', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
}

test.describe('offline sign-in with a test account', () => {
  test('a fresh `npm start` with no route to the internet: a test account reaches the dashboard and returns as the same owner', async ({
    browser,
  }, testInfo) => {
    // A server and an Auth emulator of its own (about 15 s on an idle machine), then the checks.
    test.setTimeout(300_000);
    const server = await startOwnServer('local');
    try {
      const context = await browser.newContext({ baseURL: server.baseUrl });
      const refused = await blockTheInternet(context);
      const page = await context.newPage();
      // Animations only delay the checks; axe would otherwise see colours halfway through a fade.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      expect((await readRuntimeConfig(page)).authEmulatorUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);

      // The form as it looks with its validation messages: both themes, both widths, axe.
      const problems: string[] = [];
      await page.goto('/firebase-login');
      await forEachTheme(page, async (theme) => {
        await page.goto('/firebase-login');
        await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
        await expectTheme(page, theme);
        // The spec's sign-in stays as it was, first.
        await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
        await expect(page.getByRole('textbox', { name: 'Name' })).toBeHidden();
        await page.getByRole('button', { name: 'Sign in with a test account' }).click();
        await expect(page.getByText(/Works offline, and only on a local install/)).toBeVisible();
        await page.getByRole('textbox', { name: 'E-mail' }).fill('ada@example');
        await page.getByRole('button', { name: 'Continue with test account' }).click();
        await expect(page.getByText('Please enter a name')).toBeVisible();
        await expect(page.getByText('Please enter a valid e-mail address')).toBeVisible();
        await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
        await page.getByRole('textbox', { name: 'E-mail' }).fill('');
        await page.getByRole('button', { name: 'Continue with test account' }).click();
        await expect(page.getByText('Please enter an e-mail address')).toBeVisible();

        await forEachViewport(page, (viewport) =>
          checkLayout(page, `offline-sign-in-${viewport.name}-${theme}`, problems, {
            testInfo,
            fullPage: true,
          }),
        );
      });
      expect(problems).toEqual([]);

      // Sign in, all the way to the dashboard, from the keyboard.
      await signInWithTestAccount(page, 'Ada Lovelace', 'ada@example.com');
      await expect(page.getByRole('heading', { name: 'Welcome back, Ada!' })).toBeVisible();
      await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      const accountId = await page.evaluate(() => localStorage.getItem('account_id'));
      expect(accountId).toMatch(/^[0-9a-f-]{36}$/);

      // Another browser, the same e-mail (written differently): the same owner.
      const otherContext = await browser.newContext({ baseURL: server.baseUrl });
      const refusedToOther = await blockTheInternet(otherContext);
      const otherPage = await otherContext.newPage();
      await signInWithTestAccount(otherPage, 'Ada', ' ADA@example.com ');
      expect(await otherPage.evaluate(() => localStorage.getItem('account_id'))).toBe(accountId);

      // Nothing was refused: the page never even asked for anything beyond this machine.
      expect([...refused, ...refusedToOther]).toEqual([]);
      await Promise.all([context.close(), otherContext.close()]);
    } finally {
      await server.stop();
    }
  });

  test('is not offered in production mode', async ({ browser }) => {
    test.setTimeout(240_000);
    const server = await startOwnServer('production');
    try {
      const context = await browser.newContext({ baseURL: server.baseUrl });
      await blockTheInternet(context);
      const page = await context.newPage();
      expect((await readRuntimeConfig(page)).authEmulatorUrl).toBeNull();

      await page.goto('/firebase-login');
      // The page shows once the sign-in code has read the runtime config and set up Firebase,
      // so what it offers now is what it will offer.
      await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
      await expect(page.getByRole('button', { name: 'Sign in with a test account' })).toHaveCount(
        0,
      );
      await expect(page.getByText(/test sign-in service/)).toHaveCount(0);
      expect(await page.evaluate(() => window.__latchkeyEmulator === undefined)).toBe(true);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
