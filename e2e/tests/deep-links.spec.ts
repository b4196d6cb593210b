import { newGoogleAccount, signInAsNewOwner, signInOnThisPage } from './support/owners.ts';
import { expect, test } from './support/test.ts';

test.describe('deep links', () => {
  test('a signed-out visit to /blacklist signs in first, then lands on /blacklist', async ({
    page,
  }) => {
    await page.goto('/blacklist');
    await expect(page).toHaveURL('/firebase-login?next=%2Fblacklist');
    await expect(page.getByRole('heading', { name: 'Sign In to Continue' })).toBeVisible();
    await signInOnThisPage(page, newGoogleAccount('Deep Link'));
    await expect(page).toHaveURL('/blacklist');
    await expect(page.getByRole('heading', { level: 1, name: 'Blacklist' })).toBeVisible();
  });

  test('a next target on another site is ignored: sign-in lands on home', async ({ page }) => {
    await page.goto('/firebase-login?next=%2F%2Fevil.example%2Fblacklist');
    // A target sign-in would not go on to is no deep link: the page greets as usual.
    await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
    await signInOnThisPage(page, newGoogleAccount('Deep Link'));
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
  });

  test("only unknown paths are 404; /app/ without an id is 'Invalid application ID'", async ({
    page,
  }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText('404 Page Not Found')).toBeVisible();
    await expect(page).toHaveURL('/no/such/page');

    await signInAsNewOwner(page);
    await page.goto('/app/');
    await expect(page.getByText('Invalid application ID')).toBeVisible();
  });
});
