import { PHONE, VIEWPORTS } from './support/layout-checks.ts';
import { newGoogleAccount, signInAsNewOwner, signInWithGoogle } from './support/owners.ts';
import { expect, test } from './support/test.ts';

test.describe('owner sign-in with Google', () => {
  test('signs in through the emulator, lands on home with real stats, and survives a reload', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Grace Hopper');
    await expect(page.getByRole('heading', { name: 'Welcome back, Grace!' })).toBeVisible();
    // The "Redirecting..." toast leaves with the redirect instead of covering home's cards
    // for the rest of its 5 s.
    await expect(page.getByText('Login successful! Redirecting...', { exact: true })).toBeHidden({
      timeout: 1_000,
    });
    await expect(page.getByTestId('stat-total-users')).toContainText('0');
    await expect(page.getByTestId('stat-account-type')).toContainText('Premium');
    const stored = await page.evaluate(() => ({
      accountId: localStorage.getItem('account_id'),
      email: localStorage.getItem('account_email'),
      uid: localStorage.getItem('firebase_uid'),
    }));
    expect(stored.accountId).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.email).toMatch(/@example\.com$/);
    expect(stored.uid).toBeTruthy();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome back, Grace!' })).toBeVisible();

    // The sign-in page now shows the welcome-card variant.
    await page.goto('/firebase-login');
    await expect(
      page.getByText('You are now logged in with Firebase authentication.'),
    ).toBeVisible();
    await expect(page.getByText('Grace Hopper')).toBeVisible();
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');
  });

  test('signs out: the session ends server-side and the landing page returns', async ({ page }) => {
    await signInAsNewOwner(page);
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(page).toHaveURL('/dashboard');
    // The dashboard has its own bar; its sign-out button reads as on every page.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible({ timeout: 10_000 });
    const profile = await page.request.get('/api/auth/user');
    expect(profile.status()).toBe(401);
    expect(await page.evaluate(() => localStorage.getItem('account_id'))).toBeNull();
  });

  test('every signed-in page is one click from Home and from the Dashboard, at 390 and 1280 px', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Rita Reach');
    // What a new vendor's account may open: User Management and API Tokens need permissions
    // a new account is not given; the shared header's menu lists the same.
    const everyPage = [
      'Home',
      'Dashboard',
      'Webhooks',
      'Blacklist',
      'Activity Logs',
      'Code',
      'Docs',
      'Code Editor',
    ];
    const menuItems = async () => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('menu');
      await expect(menu.getByRole('menuitem')).toHaveText(everyPage);
      return menu;
    };
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const start of ['/', '/dashboard']) {
        await page.goto(start);
        await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
        const menu = await menuItems();
        await page.keyboard.press('Escape');
        await expect(menu).toBeHidden();
      }
      // And the menu goes where it says: the last page, from the dashboard.
      await (await menuItems()).getByRole('menuitem', { name: 'Code Editor' }).click();
      await expect(page).toHaveURL('/code-editor');
      await expect(page.getByRole('heading', { name: 'Code Editor', level: 1 })).toBeVisible();
    }
    // The shared header's menu (a phone's) offers the very same pages.
    await page.setViewportSize(PHONE);
    await page.goto('/webhooks');
    await menuItems();
  });

  test('shows the 404 page for unknown paths while signed in', async ({ page }) => {
    await signInAsNewOwner(page);
    await page.goto('/definitely/not/here');
    await expect(page.getByText('404 Page Not Found')).toBeVisible();
  });

  test('two Google accounts are two isolated owners; the same account is the same owner', async ({
    browser,
  }) => {
    const first = newGoogleAccount('First Owner');
    const second = newGoogleAccount('Second Owner');
    const contextA = await browser.newContext();
    const contextB = await browser.newContext();
    const pageA = await contextA.newPage();
    const pageB = await contextB.newPage();
    await signInWithGoogle(pageA, first);
    await signInWithGoogle(pageB, second);
    const idA = await pageA.evaluate(() => localStorage.getItem('account_id'));
    const idB = await pageB.evaluate(() => localStorage.getItem('account_id'));
    expect(idA).not.toBe(idB);

    // B's session cannot act as A: the server refuses a mismatching x-account-id.
    const crossed = await pageB.request.get('/api/auth/user', {
      headers: { 'x-account-id': idA! },
    });
    expect(crossed.status()).toBe(403);

    // A fresh browser signing in with A's Google account reaches A's owner again.
    const contextC = await browser.newContext();
    const pageC = await contextC.newPage();
    await signInWithGoogle(pageC, first);
    expect(await pageC.evaluate(() => localStorage.getItem('account_id'))).toBe(idA);
    await Promise.all([contextA.close(), contextB.close(), contextC.close()]);
  });
});
