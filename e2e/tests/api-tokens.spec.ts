import type { Application, CurrentUser } from '@latchkey/contracts';
import type { Browser } from '@playwright/test';
import { pressEscapeOn } from './support/controls.ts';
import { checkLayout, expectTheme, storeTheme, THEMED_VIEWPORTS } from './support/layout-checks.ts';
import { createApplication, currentUser, updateAccount } from './support/owner-api.ts';
import { inBrowserOfItsOwn, signInAsNewOwner, signInWithGoogle } from './support/owners.ts';
import { SITE_OWNER } from './support/site-owner.ts';
import { expect, test, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const NO_PERMISSION =
  "You don't have permission to manage API tokens. This feature is restricted to users with the Manage API Tokens permission.";

/** The site owner grants `account` Manage API Tokens, in a browser of its own. */
async function grantManageApiTokens(browser: Browser, account: CurrentUser): Promise<void> {
  await inBrowserOfItsOwn(browser, async (ownerPage) => {
    await signInWithGoogle(ownerPage, SITE_OWNER);
    await updateAccount(ownerPage, account.id, {
      role: account.userPermissions.role,
      permissions: [...account.userPermissions.permissions, 'manage_api_tokens'],
      isActive: true,
    });
  });
}

/** What a shop's script does: a plain request with the token, no browser, no cookie. */
async function listApplicationsWithToken(
  baseUrl: string,
  token: string,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/api/manage/v1/applications`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  return { status: response.status, body: await response.json() };
}

/** Opens a page from the shared header: its link bar on a wide screen, its menu on a phone. */
async function openFromNavigation(page: Page, isPhone: boolean, label: string): Promise<void> {
  if (isPhone) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: label }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
  }
}

test.describe('API tokens', () => {
  for (const viewport of THEMED_VIEWPORTS) {
    test(`at ${viewport.width} px (${viewport.theme}): creates a token, uses it, revokes it`, async ({
      page,
      browser,
    }, testInfo) => {
      const isPhone = viewport.name === 'phone';
      const label = (state: string) => `api-tokens-${state}-${viewport.name}-${viewport.theme}`;
      const problems: string[] = [];
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });

      await signInAsNewOwner(page, 'Tilda Token');
      await storeTheme(page, viewport.theme);
      const orbit = await createApplication(page, 'Orbit Client');
      const other = await createApplication(page, 'Second Client');

      // Without Manage API Tokens (not among a new account's defaults): no link, and the page
      // says why when opened directly.
      await page.goto('/api-tokens');
      await expect(page.getByRole('heading', { name: 'API Tokens', level: 1 })).toBeVisible();
      await expect(page.getByRole('alert')).toHaveText(NO_PERMISSION);
      await expect(page.getByRole('button', { name: 'Create Token' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'API Tokens' })).toHaveCount(0);

      await grantManageApiTokens(browser, await currentUser(page));

      // Opened from the navigation, starting elsewhere.
      await page.goto('/webhooks');
      await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
      await openFromNavigation(page, isPhone, 'API Tokens');
      await expect(page).toHaveURL('/api-tokens');
      await expect(page.getByRole('heading', { name: 'API Tokens', level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'No API tokens yet' })).toBeVisible();
      await expectTheme(page, viewport.theme);
      await checkLayout(page, label('empty'), problems);

      // Create: two scopes, restricted to one application.
      const name = `Shop sync ${viewport.name}`;
      await page.getByRole('button', { name: 'Create Token' }).first().click();
      const createDialog = page.getByRole('dialog', { name: 'Create API Token' });
      await expect(createDialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
      // Nothing chosen yet: the contract's words at the name and at the scopes, the name
      // focused, and nothing is sent.
      await createDialog.getByRole('button', { name: 'Create Token' }).click();
      await expect(createDialog.getByRole('alert')).toHaveText([
        'Please enter a name for the token',
        'Please choose at least one scope',
      ]);
      await expect(createDialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
      await createDialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await createDialog.getByRole('checkbox', { name: 'applications:read' }).click();
      await createDialog.getByRole('checkbox', { name: 'users:read' }).click();
      await createDialog.getByRole('checkbox', { name: 'Restrict to applications' }).click();
      await createDialog.getByRole('checkbox', { name: orbit.name }).click();
      await expect(createDialog.getByRole('checkbox', { name: other.name })).not.toBeChecked();
      await checkLayout(page, label('create-dialog'), problems, { testInfo });

      const created = page.waitForResponse(
        (response) =>
          response.url().endsWith('/api/api-tokens') && response.request().method() === 'POST',
      );
      await createDialog.getByRole('button', { name: 'Create Token' }).click();
      expect((await created).status()).toBe(201);
      await expect(createDialog).toBeHidden();

      // Shown once: in full, with the warning, and copied.
      const shownDialog = page.getByRole('dialog', { name: 'Copy Your API Token' });
      await expect(shownDialog).toBeVisible();
      await expect(shownDialog).toContainText('This is the only time the token is shown.');
      const tokenField = shownDialog.getByRole('textbox', { name: 'Token' });
      await expect(tokenField).toHaveAttribute('readonly', '');
      const token = await tokenField.inputValue();
      expect(token).toMatch(/^lk_[0-9A-Za-z]{38}$/);
      await checkLayout(page, label('shown-once-dialog'), problems, { testInfo });

      // Not copied yet: Escape, Done and a click beside the dialog each ask first.
      const closeUncopied = page.getByRole('alertdialog', { name: 'Close without copying?' });
      await pressEscapeOn(page, shownDialog);
      await expect(closeUncopied).toContainText(
        'The token is shown only once. Make sure you have copied it.',
      );
      await expect(closeUncopied.getByRole('button', { name: 'Keep Open' })).toBeFocused();
      await checkLayout(page, label('close-uncopied-dialog'), problems);
      // Escape on the question goes back to the token, with focus inside its dialog.
      await pressEscapeOn(page, closeUncopied);
      await expect(closeUncopied).toBeHidden();
      await expect(tokenField).toHaveValue(token);
      expect(await shownDialog.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(
        true,
      );
      await shownDialog.getByRole('button', { name: 'Done' }).click();
      await closeUncopied.getByRole('button', { name: 'Keep Open' }).click();
      await expect(closeUncopied).toBeHidden();
      await expect(tokenField).toHaveValue(token);
      await page.mouse.click(5, 5);
      await expect(closeUncopied).toBeVisible();
      await closeUncopied.getByRole('button', { name: 'Keep Open' }).click();
      await expect(tokenField).toHaveValue(token);

      // Copied: closing no longer asks.
      await shownDialog.getByRole('button', { name: 'Copy' }).click();
      await expect(toast(page, 'API token copied to clipboard')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      await shownDialog.getByRole('button', { name: 'Done' }).click();
      await expect(closeUncopied).toHaveCount(0);
      await expect(shownDialog).toBeHidden();
      // Focus goes back to the button that started it all.
      await expect(page.getByRole('button', { name: 'Create Token' })).toBeFocused();
      await expect(page.getByRole('textbox', { name: 'Token' })).toHaveCount(0);

      // Listed by its prefix only: a row on a wide screen, a card on a phone.
      const entry = isPhone
        ? page.getByRole('list', { name: 'API tokens' }).getByRole('listitem', { name })
        : page.getByRole('row').filter({ hasText: name });
      await expect(entry).toContainText(`${token.slice(0, 11)}…`);
      await expect(entry).not.toContainText(token);
      await expect(entry).toContainText('applications:read');
      await expect(entry).toContainText('users:read');
      await expect(entry).toContainText(orbit.name);
      await expect(entry).not.toContainText(other.name);
      await expect(entry).toContainText('Never used');
      await expect(page.getByRole('table')).toHaveCount(isPhone ? 0 : 1);

      // The token at work: only the application it is restricted to.
      // The server listens on 127.0.0.1; Node may try localhost's IPv6 address first.
      const baseUrl = new URL(page.url()).origin.replace('//localhost:', '//127.0.0.1:');
      const allowed = await listApplicationsWithToken(baseUrl, token);
      expect(allowed.status).toBe(200);
      expect((allowed.body as Application[]).map((application) => application.id)).toEqual([
        orbit.id,
      ]);

      // Its last use shows on the next visit.
      await page.reload();
      await expect(entry).toContainText('just now');
      await checkLayout(page, label('list'), problems, { testInfo, fullPage: true });

      // Revoke, after a confirmation that names it.
      await entry.getByRole('button', { name: `Revoke ${name}` }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Revoke API token?' });
      await expect(confirm).toContainText(name);
      await expect(confirm).toContainText('stops working at once');
      await checkLayout(page, label('revoke-dialog'), problems);
      await confirm.getByRole('button', { name: 'Revoke Token' }).click();
      await expect(toast(page, 'API token revoked successfully')).toBeVisible();
      await expect(confirm).toBeHidden();
      await expect(page.getByRole('heading', { name: 'No API tokens yet' })).toBeVisible();

      // Refused from the next call on.
      const refused = await listApplicationsWithToken(baseUrl, token);
      expect(refused.status).toBe(401);

      expect(problems).toEqual([]);
    });
  }
});
