import { clientApiCodeMeanings, clientApiCodes, type Sample } from '@latchkey/contracts';
import { openNewApplicationTab } from './support/application-page.ts';
import { checkLayout, expectTheme, forEachTheme, settle } from './support/layout-checks.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test } from './support/test.ts';

test.describe('/docs', () => {
  test('has its own nav, every section, the codes of the contracts and working copy buttons', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInAsNewOwner(page, 'Dora Docs');
    await page.goto('/docs');
    await expect(page.getByRole('heading', { name: 'Documentation', level: 1 })).toBeVisible();

    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    await expect(nav.getByRole('button', { name: 'Sign Out' })).toBeVisible();

    for (const title of [
      'Quick Start',
      'Features',
      'C# Client',
      'API Endpoints',
      'Response Codes',
      'Variables',
      'Verifying Signatures',
      'Implementation Guide',
    ]) {
      await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible();
    }
    for (const path of [
      '/api/v1/register',
      '/api/v1/login',
      '/api/v1/verify',
      '/api/v1/session/track',
      '/api/v1/var',
      '/api/v1/user-var',
      '/api/v1/user-var/set',
    ]) {
      // In the endpoint reference: the variables guide further down names its calls too.
      await expect(
        page.getByRole('region', { name: 'API Endpoints' }).getByRole('heading', {
          name: `POST ${path}`,
          exact: true,
          level: 3,
        }),
      ).toBeVisible();
    }
    await expect(page.getByText('All data is kept in PostgreSQL.')).toBeVisible();

    // The codes table is the contracts' closed list, in order.
    const rows = page.getByTestId('client-api-codes').locator('tbody tr');
    await expect(rows).toHaveCount(clientApiCodes.length);
    for (const [index, code] of clientApiCodes.entries()) {
      await expect(rows.nth(index).locator('td')).toHaveText([code, clientApiCodeMeanings[code]]);
    }

    // The worked example of docs/client-api.md is on the page.
    await expect(page.getByText('Worked example', { exact: true })).toBeVisible();

    // The C# client is the template itself; its copy button copies all of it.
    const template = (await (await page.request.get('/api/samples/csharp')).json()) as Sample;
    await page.getByRole('button', { name: 'Copy C# client' }).click();
    await expect(
      page.locator('li[data-state="open"]').getByText('Code copied to clipboard', { exact: true }),
    ).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(template.code);

    await nav.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL('/');
  });

  test('"Moving from KeyAuth": reached from the KeyAuth card, and laid out at 390 px in both themes', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await signInAsNewOwner(page, 'Milo Mover');
    await openNewApplicationTab(page, 'Orbit Mover', 'API Configuration');
    await page
      .getByRole('tabpanel', { name: 'API Configuration' })
      .getByRole('link', { name: 'Moving from KeyAuth' })
      .click();

    // In the app, onto the section itself rather than the top of the page.
    await expect(page).toHaveURL('/docs#moving-from-keyauth');
    const section = page.getByRole('region', { name: 'Moving from KeyAuth' });
    const heading = section.getByRole('heading', { name: 'Moving from KeyAuth', level: 2 });
    await settle(page);
    await expect(heading).toBeInViewport();
    const origin = new URL(page.url()).origin;
    await expect(
      section.getByTestId('keyauth-program-changes').locator('tbody tr').first().locator('td'),
    ).toHaveText([`${origin}/api/1.2/`, `${origin}/api/1.3/`]);
    await expect(section.getByTestId('keyauth-request-types').locator('tbody tr')).toHaveCount(17);

    // Opened from an address (a bookmark, a shared link), on a phone, in each theme.
    const problems: string[] = [];
    await forEachTheme(page, async (theme) => {
      // From elsewhere: a second visit to the same address would only scroll, not load.
      await page.goto('about:blank');
      await page.goto('/docs#moving-from-keyauth');
      await expectTheme(page, theme);
      await settle(page);
      await expect(heading).toBeInViewport();
      await checkLayout(page, `docs-moving-from-keyauth-phone-${theme}`, problems, { testInfo });
    });
    expect(problems).toEqual([]);
  });
});
