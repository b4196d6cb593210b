import { expect, test } from './support/test.ts';

test.describe('landing page (signed out)', () => {
  test('shows the splash with its status texts, then the landing content', async ({ page }) => {
    // Each status text is up for about half a second: polling for it races a busy machine
    // (the browser may paint it and move on between two polls). The page records every text
    // its splash showed, in order, from before the console's first script runs.
    await page.addInitScript(() => {
      const shown: string[] = [];
      Object.assign(window, { splashTextsShown: shown });
      new MutationObserver(() => {
        const status = document.querySelector('[data-testid="splash-screen"] [role="status"]');
        const progressbar = document.querySelector(
          '[data-testid="splash-screen"] [role="progressbar"]',
        );
        const text = status?.textContent ?? '';
        if (progressbar && text !== '' && shown.at(-1) !== text) shown.push(text);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto('/');

    await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    expect(
      await page.evaluate(
        () => (window as unknown as { splashTextsShown: string[] }).splashTextsShown,
      ),
    ).toEqual([
      'Initializing',
      'Loading Security Protocols',
      'Establishing Secure Connection',
      'Authenticating Systems',
      'Finalizing Setup',
    ]);
    await expect(page.getByRole('button', { name: 'View Documentation' })).toBeVisible();
    await expect(page.getByText('99.9%')).toBeVisible();
    await expect(page.getByText('24/7')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start Building Now' })).toBeVisible();
    await expect(page.getByText(/© 2024/)).toBeVisible();
    await expect(page.locator('canvas')).toHaveCount(1);

    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await expect(page).toHaveURL('/firebase-login');
    await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });

  test('shows the 404 page for unknown paths, and sends /dashboard to sign in first', async ({
    page,
  }) => {
    // The status says so too, for crawlers and link checkers; a page the console has is a 200.
    const unknown = await page.goto('/no-such-page');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByText('404 Page Not Found')).toBeVisible();
    const known = await page.goto('/dashboard');
    expect(known?.status()).toBe(200);
    await expect(page).toHaveURL('/firebase-login?next=%2Fdashboard');
    await expect(page.getByRole('heading', { name: 'Sign In to Continue' })).toBeVisible();
  });

  // The shared test fixture fails this test if the policy refuses the inline script.
  test('keeps the chosen theme across a reload, applied by the CSP-allowed inline script', async ({
    page,
  }) => {
    await page.goto('/firebase-login');
    const html = page.locator('html');
    await expect(html).not.toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Toggle theme' }).first().click();
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('latchkey-auth-theme'))).toBe('dark');

    await page.reload({ waitUntil: 'commit' });
    // Set by index.html's inline script, before the bundle (and React) can have run.
    await page.waitForSelector('html.dark', { timeout: 5_000 });
    await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
    await expect(html).toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Toggle theme' }).first().click();
    await expect(html).not.toHaveClass(/dark/);
  });
});
