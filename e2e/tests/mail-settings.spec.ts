import type { AppUser, Application } from '@latchkey/contracts';
import { clientCall } from './support/client-api.ts';
import { checkLayout, forEachViewport, PHONE, storeTheme } from './support/layout-checks.ts';
import { createApplication, ownerPost, ownerPut } from './support/owner-api.ts';
import { pageOfItsOwn, signInAsNewOwner } from './support/owners.ts';
import { toast } from './support/toast.ts';
import { expect, test, type Page } from './support/test.ts';

const PASSWORD = 'pw-pilot-123';

/** An application with its portal on and an end user with an unconfirmed address. */
async function seed(page: Page, ownerName: string) {
  await signInAsNewOwner(page, ownerName);
  const created = await createApplication(page, 'Verified Desk');
  const base = `/api/applications/${created.id}`;
  const application = await ownerPut<Application>(page, base, { portalEnabled: true });
  const user = await ownerPost<AppUser>(page, `${base}/users`, {
    username: 'pilot',
    email: 'pilot@example.com',
    password: PASSWORD,
  });
  return { application, user };
}

/** The E-mail tab, its log refreshed until a mail of `kind` to `to` shows as Sent. */
async function openSentMail(page: Page, application: Application, kind: string, to: string) {
  await page.goto(`/app/${application.id}`);
  await page.getByRole('tab', { name: 'E-mail' }).click();
  const log = page.getByRole('region', { name: 'Mail' });
  const open = log.getByRole('button', { name: `Open the ${kind} mail to ${to}` });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(log.getByRole('row', { name: new RegExp(`${to}.*Sent`) })).toBeVisible({
      timeout: 1_000,
    });
  }).toPass({ timeout: 20_000 });
  await open.click();
  return page.getByRole('dialog');
}

test.describe('mail settings and verified addresses', () => {
  test('required in the E-mail tab, confirmed by its link on the portal, marked by the owner', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { application } = await seed(page, 'Vera Verify');
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: 'E-mail' }).click();

    // Switched on with its confirmation, as the server keeps it.
    const card = page.getByRole('tabpanel', { name: 'E-mail' });
    await card.getByRole('switch', { name: 'Require a verified e-mail address' }).click();
    await card.getByRole('button', { name: 'Save Settings' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Require verified addresses?' });
    await confirm.getByRole('button', { name: 'Require Verification' }).click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'E-mail' }).click();
    await expect(
      page.getByRole('switch', { name: 'Require a verified e-mail address' }),
    ).toBeChecked();

    // A program registers; its login waits for the link.
    const registered = await clientCall(page, application, 'register', {
      username: 'newcomer',
      password: PASSWORD,
      email: 'newcomer@example.com',
    });
    expect(registered).toMatchObject({ success: true, code: 'OK' });
    const login = () =>
      clientCall(page, application, 'login', {
        username: 'newcomer',
        password: PASSWORD,
        version: application.version || '1.0.0',
      });
    expect(await login()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });

    const message = await openSentMail(
      page,
      application,
      'e-mail verification',
      'newcomer@example.com',
    );
    await expect(message).toContainText('Confirm your e-mail address for Verified Desk');
    const link = await message.getByRole('link').getAttribute('href');
    expect(link).toMatch(/\/portal\/[0-9a-f]{20}\/verify\?token=[\w-]{43}$/);
    await page.keyboard.press('Escape');

    const portal = await pageOfItsOwn(browser);
    await portal.goto(new URL(link!).pathname + new URL(link!).search);
    await expect(portal.getByText('Your e-mail address is confirmed.')).toBeVisible();
    expect(new URL(portal.url()).search).toBe('');
    expect(await login()).toMatchObject({ code: 'OK' });
    await portal.context().close();

    // The owner vouches for the user created before the setting.
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('row', { name: /pilot/ }).getByRole('button', { name: /Edit/ }).click();
    const edit = page.getByRole('dialog', { name: /Edit User/ });
    await expect(edit.getByTestId('email-verification')).toHaveText('Not verified');
    await edit.getByRole('button', { name: 'Mark Verified' }).click();
    await expect(toast(page, 'E-mail address marked verified')).toBeVisible();
    await expect(edit.getByTestId('email-verification')).toHaveText('Verified');
    await expect(edit.getByRole('button', { name: 'Mark Verified' })).toHaveCount(0);
  });

  test('expiry reminders: switched on with their days; the stop page asks before it acts', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { application, user } = await seed(page, 'Rita Reminder');
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: 'E-mail' }).click();
    const tab = page.getByRole('tabpanel', { name: 'E-mail' });
    await tab.getByRole('switch', { name: 'Mail expiry reminders' }).click();
    await tab.getByLabel('Days before').fill('90');
    await tab.getByRole('button', { name: 'Save Settings' }).click();
    await expect(tab.getByText('Reminder days must be at most 60')).toBeVisible();
    await expect(tab.getByLabel('Days before')).toBeFocused();
    await tab.getByLabel('Days before').fill('3');
    await tab.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'E-mail' }).click();
    await expect(page.getByLabel('Days before')).toHaveValue('3');

    // A stop link that is not one of ours: nothing happens before the click, then the refusal.
    const portal = await pageOfItsOwn(browser);
    await portal.goto(
      `/portal/${application.portalPublicId}/unsubscribe?user=${user.id}&token=${'0'.repeat(64)}`,
    );
    await expect(portal.getByRole('heading', { name: 'Stop expiry reminders?' })).toBeVisible();
    expect(new URL(portal.url()).search).toBe('');
    await portal.getByRole('button', { name: 'Stop Reminders' }).click();
    await expect(
      portal.getByText(
        'This link does not stop any reminders: open it again from the latest reminder.',
      ),
    ).toBeVisible();
    await expect(portal.getByRole('button', { name: 'Stop Reminders' })).toHaveCount(0);
    await portal.context().close();
  });

  test('the Sender and Templates cards save what the mail then says', async ({ page }) => {
    test.setTimeout(120_000);
    const { application } = await seed(page, 'Sam Sender');
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: 'E-mail' }).click();

    const sender = page.getByRole('tabpanel', { name: 'E-mail' });
    await sender.getByLabel('Reply-to address').fill('not an address');
    await sender.getByRole('button', { name: 'Save Sender' }).click();
    await expect(sender.getByLabel('Reply-to address')).toHaveAttribute('aria-invalid', 'true');
    await sender.getByLabel('Sender name').fill('Acme Support');
    await sender.getByLabel('Reply-to address').fill('help@acme.example');
    await sender.getByRole('button', { name: 'Save Sender' }).click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'E-mail' }).click();
    await expect(sender.getByLabel('Sender name')).toHaveValue('Acme Support');
    await expect(sender.getByLabel('Reply-to address')).toHaveValue('help@acme.example');

    const templates = page.getByRole('tabpanel', { name: 'E-mail' });
    await templates.getByLabel('Subject').fill('Your {{app_name}} password link');
    await templates.getByRole('button', { name: 'Preview' }).click();
    await expect(templates.getByRole('region', { name: 'Preview' })).toContainText(
      'Your Verified Desk password link',
    );
    await templates.getByRole('button', { name: 'Save Template' }).click();
    await expect(toast(page, 'Template saved successfully')).toBeVisible();
    await expect(templates.getByText('Customised')).toBeVisible();

    // The next reset mail says it.
    expect(
      await clientCall(page, application, 'password/forgot', { username: 'pilot' }),
    ).toMatchObject({ code: 'OK' });
    const message = await openSentMail(page, application, 'password reset', 'pilot@example.com');
    await expect(message).toContainText('Your Verified Desk password link');
    await page.keyboard.press('Escape');

    // Back to the built-in wording, after a confirmation.
    await templates.getByRole('button', { name: 'Reset to Default' }).click();
    await page
      .getByRole('alertdialog', { name: 'Reset to the default?' })
      .getByRole('button', { name: 'Reset Template' })
      .click();
    await expect(toast(page, 'Template reset to the default')).toBeVisible();
    await expect(templates.getByLabel('Subject')).toHaveValue(
      'Choose a new password for {{app_name}}',
    );
  });

  test('at 390 and 1280 px in both themes: the E-mail tab, the verify and stop pages; axe clean', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const { application, user } = await seed(page, 'Lena Layout');
    const portal = await pageOfItsOwn(browser);
    const verifyPath = `/portal/${application.portalPublicId}/verify`;
    const problems: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await storeTheme(page, theme);
      await portal.emulateMedia({ colorScheme: theme });
      await forEachViewport(page, async (viewport) => {
        await page.goto(`/app/${application.id}`);
        await page.getByRole('tab', { name: 'E-mail' }).click();
        await expect(page.getByRole('heading', { name: 'Verification and Notices' })).toBeVisible();
        await checkLayout(page, `mail-settings-${viewport.name}-${theme}`, problems, { testInfo });
      });
      await forEachViewport(portal, async (viewport) => {
        // An unknown link: the server's answer, on the page that confirms.
        await portal.goto(`${verifyPath}?token=${'A'.repeat(43)}`);
        await expect(portal.getByText(/This link has expired/)).toBeVisible();
        await checkLayout(portal, `portal-verify-${viewport.name}-${theme}`, problems, {
          testInfo,
        });
        await portal.goto(
          `/portal/${application.portalPublicId}/unsubscribe?user=${user.id}&token=${'0'.repeat(64)}`,
        );
        await expect(portal.getByRole('button', { name: 'Stop Reminders' })).toBeVisible();
        await checkLayout(portal, `portal-unsubscribe-${viewport.name}-${theme}`, problems, {
          testInfo,
        });
      });
    }
    await portal.setViewportSize({ width: PHONE.width, height: PHONE.height });
    expect(problems).toEqual([]);
    await portal.context().close();
  });
});
