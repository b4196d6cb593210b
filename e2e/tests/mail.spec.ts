import type { AppUser, Application, Plan } from '@latchkey/contracts';
import { clientCall } from './support/client-api.ts';
import {
  checkDialog,
  checkLayout,
  forEachViewport,
  PHONE,
  storeTheme,
} from './support/layout-checks.ts';
import { createApplication, ownerPost, ownerPut } from './support/owner-api.ts';
import { pageOfItsOwn, signInAsNewOwner } from './support/owners.ts';
import { toast } from './support/toast.ts';
import { expect, test, type Page } from './support/test.ts';

const PASSWORD = 'pw-pilot-123';
const NEW_PASSWORD = 'pw-pilot-789';
const FORGOT_ANSWER =
  'If an account matches, a link to choose a new password has been sent to its e-mail address.';
const RESET_DONE =
  'Your password has been changed. Sign in with it in the program; every device that was signed in has been signed out.';

/** The portal's theme key (apps/console/src/portal/theme.ts). */
const PORTAL_THEME_STORAGE_KEY = 'latchkey-portal-theme';

/** An application with its portal on and an end user with an address, as a new owner. */
async function seedMail(page: Page, ownerName: string) {
  await signInAsNewOwner(page, ownerName);
  const created = await createApplication(page, 'Mail Desk');
  const base = `/api/applications/${created.id}`;
  const application = await ownerPut<Application>(page, base, {
    portalEnabled: true,
    portalName: 'Acme Portal',
  });
  await ownerPost<AppUser>(page, `${base}/users`, {
    username: 'pilot',
    email: 'pilot@example.com',
    password: PASSWORD,
  });
  return { application, portalPath: `/portal/${application.portalPublicId}` };
}

/** The E-mail tab of the application's page, its log refreshed until `to` shows as Sent. */
async function openMailLog(page: Page, application: Application, to: string) {
  await page.goto(`/app/${application.id}`);
  await page.getByRole('tab', { name: 'E-mail' }).click();
  const log = page.getByRole('region', { name: 'Mail' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(log.getByRole('row', { name: new RegExp(`${to}.*Sent`) })).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 20_000 });
  return log;
}

test.describe('mail to end users', () => {
  test('a forgotten password: asked on the portal, read in the local mailbox, changed by its link', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { application, portalPath } = await seedMail(page, 'Molly Mailbox');
    const portal = await pageOfItsOwn(browser);

    // Forgot password? on the portal's sign-in page, by address.
    await portal.goto(portalPath);
    await portal.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(portal.getByLabel('Username or e-mail address')).toBeFocused();
    await portal.getByLabel('Username or e-mail address').fill('pilot@example.com');
    await portal.getByRole('button', { name: 'Send me a link' }).click();
    await expect(portal.getByRole('status')).toHaveText(FORGOT_ANSWER);

    // The owner's mail log has it; the local mailbox opens it with its link.
    const log = await openMailLog(page, application, 'pilot@example.com');
    await log
      .getByRole('button', { name: 'Open the password reset mail to pilot@example.com' })
      .click();
    const message = page.getByRole('dialog', { name: 'Password reset' });
    await expect(message).toContainText('Choose a new password for Mail Desk');
    await expect(message).toContainText('Hello pilot,');
    const link = await message.getByRole('link').getAttribute('href');
    expect(link).toMatch(/\/portal\/[0-9a-f]{20}\/reset\?token=[\w-]{43}$/);
    await page.keyboard.press('Escape');
    await expect(message).toBeHidden();

    // The link's page: the token leaves the address bar, the two passwords must match.
    await portal.goto(new URL(link!).pathname + new URL(link!).search);
    await expect(portal.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await expect(portal.getByLabel('New password', { exact: true })).toBeFocused();
    expect(new URL(portal.url()).search).toBe('');
    await portal.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await portal.getByLabel('Confirm new password').fill('something else');
    await portal.getByRole('button', { name: 'Change password' }).click();
    await expect(portal.getByRole('alert')).toHaveText('The new passwords do not match');
    await portal.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await portal.getByRole('button', { name: 'Change password' }).click();
    await expect(portal.getByRole('status')).toHaveText(RESET_DONE);

    // The program logs in with the new password only; the link works once.
    const login = (password: string) =>
      clientCall(page, application, 'login', {
        username: 'pilot',
        password,
        version: application.version || '1.0.0',
      });
    expect(await login(PASSWORD)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await login(NEW_PASSWORD)).toMatchObject({ code: 'OK' });
    await portal.goto(new URL(link!).pathname + new URL(link!).search);
    await portal.getByLabel('New password', { exact: true }).fill('yet another one');
    await portal.getByLabel('Confirm new password').fill('yet another one');
    await portal.getByRole('button', { name: 'Change password' }).click();
    await expect(portal.getByRole('alert')).toHaveText(
      'This link has expired or has already been used. Ask for a new one from the program.',
    );
    await expect(portal.getByLabel('New password', { exact: true })).toHaveCount(0);
    await portal.context().close();
  });

  test('keys by mail: a batch from the Generate dialog, one key from its row', async ({ page }) => {
    test.setTimeout(120_000);
    const { application } = await seedMail(page, 'Kira Keys');
    await ownerPost<Plan>(page, `/api/applications/${application.id}/plans`, {
      name: 'Pro Yearly',
      durationDays: 365,
    });
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: 'Licences' }).click();
    await page.getByRole('button', { name: 'Generate Keys' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Generate Licence Keys' });
    await dialog.getByLabel(/^Number of keys/).fill('2');
    await dialog.getByLabel('E-mail the keys to (optional)').fill('buyer@example.com');
    await dialog.getByRole('button', { name: 'Generate Keys' }).click();
    const keysDialog = page.getByRole('dialog', { name: 'New Licence Keys' });
    const keys = (await keysDialog.getByLabel('Keys').inputValue()).trim().split('\n');
    expect(keys).toHaveLength(2);
    await keysDialog.getByRole('button', { name: 'Done' }).click();

    // One key again, to another address, from its row: the address is checked first.
    await page.getByRole('button', { name: 'Send key by e-mail' }).first().click();
    const send = page.getByRole('dialog', { name: 'Send key by e-mail' });
    await send.getByLabel(/^E-mail address/).fill('not an address');
    await send.getByRole('button', { name: 'Send Key' }).click();
    await expect(send.getByRole('alert')).toHaveText('Please enter a valid e-mail address');
    await send.getByLabel(/^E-mail address/).fill('friend@example.com');
    await send.getByRole('button', { name: 'Send Key' }).click();
    await expect(toast(page, 'The key is on its way to friend@example.com')).toBeVisible();
    await expect(send).toBeHidden();

    // Both in the mail log, the batch with both keys in it.
    const log = await openMailLog(page, application, 'buyer@example.com');
    await expect(log.getByRole('row', { name: /friend@example\.com.*Sent/ })).toBeVisible();
    await log
      .getByRole('button', { name: 'Open the licence key mail to buyer@example.com' })
      .click();
    const message = page.getByRole('dialog', { name: 'Licence key' });
    await expect(message).toContainText('Here is your licence key for Mail Desk (Pro Yearly):');
    for (const key of keys) await expect(message).toContainText(key);
  });

  test('at 390 and 1280 px in both themes: the mail log, a message, the reset and forgot pages; axe clean', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const { application, portalPath } = await seedMail(page, 'Lars Layout');
    expect(
      await clientCall(page, application, 'password/forgot', { username: 'pilot' }),
    ).toMatchObject({ code: 'OK' });
    const problems: string[] = [];
    const log = await openMailLog(page, application, 'pilot@example.com');
    await log.getByRole('button', { name: /^Open the password reset mail/ }).click();
    const link = await page.getByRole('dialog').getByRole('link').getAttribute('href');
    await page.keyboard.press('Escape');
    const resetPath = new URL(link!).pathname;
    const portal = await pageOfItsOwn(browser);

    for (const theme of ['light', 'dark'] as const) {
      await storeTheme(page, theme);
      await portal.emulateMedia({ colorScheme: theme });
      await portal.goto(portalPath);
      await portal.evaluate((key) => localStorage.removeItem(key), PORTAL_THEME_STORAGE_KEY);
      await forEachViewport(page, async (viewport) => {
        await openMailLog(page, application, 'pilot@example.com');
        await checkLayout(page, `mail-log-${viewport.name}-${theme}`, problems, { testInfo });
        await page
          .getByRole('region', { name: 'Mail' })
          .getByRole('button', { name: /^Open the password reset mail/ })
          .click();
        const dialog = page.getByRole('dialog', { name: 'Password reset' });
        await expect(dialog.getByRole('link')).toBeVisible();
        await checkDialog(page, dialog, `mail-message-${viewport.name}-${theme}`, problems, {
          testInfo,
          width: viewport.width,
        });
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      });
      await forEachViewport(portal, async (viewport) => {
        // The reset page without a token says so; with a used or unknown one, the server does.
        await portal.goto(resetPath);
        await expect(portal.getByRole('alert')).toBeVisible();
        await checkLayout(portal, `portal-reset-${viewport.name}-${theme}`, problems, { testInfo });
        await portal.goto(`${resetPath}?token=${'A'.repeat(43)}`);
        await expect(portal.getByLabel('Confirm new password')).toBeVisible();
        await checkLayout(portal, `portal-reset-form-${viewport.name}-${theme}`, problems, {
          testInfo,
        });
        await portal.goto(portalPath);
        await portal.getByRole('button', { name: 'Forgot password?' }).click();
        await expect(portal.getByLabel('Username or e-mail address')).toBeVisible();
        await checkLayout(portal, `portal-forgot-${viewport.name}-${theme}`, problems, {
          testInfo,
        });
      });
    }
    await portal.setViewportSize({ width: PHONE.width, height: PHONE.height });
    expect(problems).toEqual([]);
    await portal.context().close();
  });
});
