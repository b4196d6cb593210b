import {
  LICENSE_COUNT_RANGE,
  type AppUser,
  type GeneratedLicenses,
  type Plan,
} from '@latchkey/contracts';
import { clientPost } from './support/client-api.ts';
import { chooseOption } from './support/controls.ts';
import {
  checkDialog,
  checkLayout,
  checkRowActions,
  forEachTheme,
  forEachViewport,
  PHONE,
} from './support/layout-checks.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { rowAction } from './support/row-actions.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

/** An application with two plans and one end user, as the signed-in owner. */
async function seedApplication(page: Page, name: string) {
  const application = await createApplication(page, name);
  const base = `/api/applications/${application.id}`;
  const pro = await ownerPost<Plan>(page, `${base}/plans`, {
    name: 'Pro Monthly',
    durationDays: 30,
    entitlements: ['PRO', 'EXPORT_PDF'],
    updatesForDays: 365,
    meters: [{ name: 'exports', allowance: 500, resetEvery: 'month', overage: 'refuse' }],
  });
  const basic = await ownerPost<Plan>(page, `${base}/plans`, { name: 'Basic Lifetime' });
  const user = await ownerPost<AppUser>(page, `${base}/users`, {
    username: 'pilot',
    password: 'pw-pilot-123',
  });
  return { application, base, pro, basic, user };
}

/** What a program does to count use: log in, start the session, count `amount` exports. */
async function countMeterUse(
  page: Page,
  application: { apiKey: string; version: string },
  username: string,
  password: string,
  amount: number,
) {
  const headers = { 'x-api-key': application.apiKey };
  const login = (await (
    await page.request.post('/api/v1/login', {
      headers,
      data: { username, password, version: application.version },
    })
  ).json()) as { user_id: string; session_token: string };
  await page.request.post('/api/v1/session/track', {
    headers,
    data: { action: 'start', user_id: login.user_id, session_token: login.session_token },
  });
  const used = (await (
    await page.request.post('/api/v1/meters/exports/use', {
      headers,
      data: { session_token: login.session_token, amount },
    })
  ).json()) as { code: string };
  expect(used.code).toBe('OK');
}

function keyRows(page: Page): Locator {
  return page.locator('tr[data-testid^="license-row-"]');
}

test.describe('licences tab of the application page', () => {
  test('generates, finds, reveals, bans, unbans and deletes keys; deletes the unused of a plan', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInAsNewOwner(page, 'Lena Licences');
    const { application, base, basic } = await seedApplication(page, 'Key Desk');
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: 'Licences' }).click();
    await expect(page.getByRole('heading', { name: 'No licence keys yet' })).toBeVisible();

    // The form is checked before anything is sent, the mask's strength said as it is typed.
    await page.getByRole('button', { name: 'Generate Keys' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Generate Licence Keys' });
    // The first plan listed (plans are listed by name) is chosen already; these keys are of
    // the other one.
    await expect(dialog.getByRole('combobox', { name: /^Plan/ })).toHaveText(/^Basic Lifetime/);
    await chooseOption(
      page,
      dialog.getByRole('combobox', { name: /^Plan/ }),
      'Pro Monthly (30 days)',
    );
    await dialog.getByLabel(/^Number of keys/).fill('10001');
    await dialog.getByRole('button', { name: 'Generate Keys' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(LICENSE_COUNT_RANGE);
    await dialog.getByLabel(/^Number of keys/).fill('3');
    await expect(dialog.getByText(/^125 bits of randomness/)).toBeVisible();
    await dialog.getByLabel('Mask').fill('XXXX-XXXX');
    await expect(dialog.getByText(/this one has 40 bits/)).toBeVisible();
    await dialog.getByLabel('Mask').fill('PRO-XXXXX-XXXXX-XXXXX-XXXXX');
    await dialog.getByLabel('Note (optional)').fill('Shop A');
    await dialog.getByRole('button', { name: 'Generate Keys' }).click();
    await expect(toast(page, 'Licence keys generated successfully')).toBeVisible();

    // The new keys, whole, once: copy them all and download them.
    const keysDialog = page.getByRole('dialog', { name: 'New Licence Keys' });
    await expect(keysDialog).toContainText('3 keys of Pro Monthly');
    const keys = (await keysDialog.getByLabel('Keys').inputValue()).trim().split('\n');
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(/^PRO(-[2-9A-HJ-NP-Z]{5}){4}$/);
    await keysDialog.getByRole('button', { name: 'Copy all' }).click();
    await expect(toast(page, 'Licence keys copied to clipboard')).toBeVisible();
    expect((await page.evaluate(() => navigator.clipboard.readText())).trim().split('\n')).toEqual(
      keys,
    );
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      keysDialog.getByRole('button', { name: 'Download .csv' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('licence-keys-pro-monthly.csv');
    await keysDialog.getByRole('button', { name: 'Done' }).click();
    await expect(keyRows(page)).toHaveCount(3);

    // Two keys of the other plan; a holder redeems one of the first three.
    await ownerPost<GeneratedLicenses>(page, `${base}/licenses`, {
      planId: basic.id,
      count: 2,
      note: 'Giveaway',
    });
    const redeemed = await clientPost(page, application, 'license/redeem', {
      username: 'pilot',
      password: 'pw-pilot-123',
      license_key: keys[0],
    });
    expect(((await redeemed.json()) as { success: boolean }).success).toBe(true);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(keyRows(page)).toHaveCount(5);
    await page.getByRole('searchbox', { name: 'Search licence keys' }).fill('Giveaway');
    await expect(keyRows(page)).toHaveCount(2);
    await expect(keyRows(page).first()).toContainText('Basic Lifetime');
    await page.getByRole('searchbox', { name: 'Search licence keys' }).fill('');
    await expect(keyRows(page)).toHaveCount(5);

    // Filters: by status and by plan; the export link keeps them.
    await chooseOption(page, page.getByRole('combobox', { name: 'Status' }), 'Used');
    await expect(keyRows(page)).toHaveCount(1);
    const used = keyRows(page).first();
    await expect(used).toContainText('pilot');
    await expect(used).toContainText('Pro Monthly');
    await used.getByRole('button', { name: 'Reveal key' }).click();
    await expect(used.locator('code')).toHaveText(keys[0]!);
    await used.getByRole('button', { name: 'Hide key' }).click();
    await expect(used.locator('code')).not.toHaveText(keys[0]!);
    const exportHref = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    expect(exportHref).toBe(`${base}/licenses/export.csv?status=used`);
    const exported = await page.request.get(exportHref!);
    expect(exported.status()).toBe(200);
    const lines = (await exported.text()).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(keys[0]!);

    await chooseOption(page, page.getByRole('combobox', { name: 'Status' }), 'All statuses');
    await chooseOption(page, page.getByRole('combobox', { name: 'Plan' }), 'Pro Monthly');
    await expect(keyRows(page)).toHaveCount(3);

    // Ban with a reason (asked for), then unban; each confirmed.
    const unused = keyRows(page).filter({ hasText: 'Unused' });
    const target = unused.first();
    const targetId = await target.getAttribute('data-testid');
    const row = page.getByTestId(targetId!);
    await row.getByRole('button', { name: 'Ban key' }).click();
    const ban = page.getByRole('dialog', { name: 'Ban licence key?' });
    await ban.getByRole('button', { name: 'Ban Key' }).click();
    await expect(ban.getByRole('alert')).toHaveText('Please enter a reason for the ban');
    await ban.getByLabel(/^Reason/).fill('Chargeback');
    await ban.getByRole('button', { name: 'Ban Key' }).click();
    await expect(toast(page, 'Licence key banned successfully')).toBeVisible();
    await expect(row).toContainText('Banned');
    await expect(row).toContainText('Chargeback');
    await row.getByRole('button', { name: 'Unban key' }).click();
    await page
      .getByRole('alertdialog', { name: 'Unban licence key?' })
      .getByRole('button', { name: 'Unban Key' })
      .click();
    await expect(toast(page, 'Licence key unbanned successfully')).toBeVisible();
    await expect(row).toContainText('Unused');

    // Delete one key; then the unused of the plan, after a confirmation that counts them.
    await row.getByRole('button', { name: 'Delete key' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete licence key?' })
      .getByRole('button', { name: 'Delete Key' })
      .click();
    await expect(toast(page, 'Licence key deleted successfully')).toBeVisible();
    await expect(keyRows(page)).toHaveCount(2);

    await page.getByRole('button', { name: 'Delete Unused' }).click();
    await page.getByRole('menuitem', { name: 'Pro Monthly' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete unused keys?' });
    await expect(confirm.getByTestId('unused-key-count')).toHaveText('1 unused key');
    await confirm.getByRole('button', { name: 'Delete Unused Keys' }).click();
    await expect(toast(page, 'Unused licence keys deleted successfully')).toBeVisible();
    await expect(keyRows(page)).toHaveCount(1);
    await expect(keyRows(page).first()).toContainText('Used');

    // The stats count from running totals: two unused (Basic), one used.
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByTestId('stat-unused-keys')).toHaveText('2');
    await expect(page.getByTestId('stat-used-keys')).toHaveText('1');
  });

  test('grants, extends and removes a subscription in the Edit User dialog', async ({ page }) => {
    await signInAsNewOwner(page, 'Sam Subscriptions');
    const { application } = await seedApplication(page, 'Sub Desk');
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: /^Users/ }).click();
    // The application sells plans, so its users table shows what each user holds.
    const row = page.getByTestId('user-row-pilot');
    const rowPlans = row.getByTestId('user-plans');
    // While the dialog is open the modal hides the page from the accessibility tree.
    const heldPlans = rowPlans
      .getByRole('list', { name: 'Plans of pilot', includeHidden: true })
      .getByRole('listitem', { includeHidden: true });
    await expect(page.getByRole('columnheader', { name: 'Plans' })).toBeVisible();
    await expect(rowPlans).toHaveText('None');
    await row.getByRole('button', { name: 'Edit user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(dialog.getByText('No subscriptions yet.')).toBeVisible();

    const grant = dialog.getByRole('group', { name: 'Grant a plan' });
    await chooseOption(
      page,
      grant.getByRole('combobox', { name: 'Grant a plan' }),
      'Pro Monthly (30 days)',
    );
    await grant.getByRole('button', { name: 'Grant' }).click();
    await expect(toast(page, 'Subscription granted successfully')).toBeVisible();
    const pro = dialog.getByTestId('subscription-Pro Monthly');
    await expect(pro).toContainText('Active');
    await expect(pro).toContainText('Expires');
    await expect(pro).toContainText('Updates until');
    await expect(
      dialog.getByRole('list', { name: 'Entitlements of pilot' }).getByRole('listitem'),
    ).toHaveText(['EXPORT_PDF', 'PRO']);
    // The plan's meter, then counted by a program through the client API; Refresh re-reads it.
    const exports = dialog.getByTestId('meter-exports');
    await expect(exports).toContainText('0 of 500 used');
    await countMeterUse(page, application, 'pilot', 'pw-pilot-123', 20);
    await dialog.getByRole('button', { name: 'Refresh' }).click();
    await expect(exports).toContainText('20 of 500 used');
    await expect(exports.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '4');
    // The row behind the dialog is re-read: the plan badge and the codes it grants.
    await expect(heldPlans).toHaveText([/^Pro Monthly until /]);
    await expect(rowPlans.locator('code')).toHaveText(['EXPORT_PDF', 'PRO']);

    await chooseOption(
      page,
      grant.getByRole('combobox', { name: 'Grant a plan' }),
      'Basic Lifetime (Lifetime)',
    );
    await grant.getByRole('button', { name: 'Grant' }).click();
    await expect(toast(page, 'Subscription granted successfully')).toBeVisible();
    await expect(dialog.getByTestId('subscription-Basic Lifetime')).toContainText('Lifetime');
    await expect(heldPlans).toHaveText(['Basic Lifetime lifetime', /^Pro Monthly until /]);

    // Extend: a new expiry, saved at once.
    await pro.getByRole('button', { name: 'Change expiry of Pro Monthly' }).click();
    await pro.getByLabel('New expiry of Pro Monthly').fill('2031-01-15T10:00');
    await pro.getByLabel('Updates of Pro Monthly until').fill('2032-02-20T10:00');
    await pro.getByRole('button', { name: 'Save Expiry' }).click();
    await expect(toast(page, 'Subscription updated successfully')).toBeVisible();
    await expect(pro).toContainText('2031');
    await expect(pro.getByText(/^Updates until /)).toContainText('2032');
    await expect(rowPlans).toContainText('Pro Monthly until 1/15/2031');

    // Remove, after a confirmation.
    await dialog
      .getByTestId('subscription-Basic Lifetime')
      .getByRole('button', { name: 'Remove Basic Lifetime' })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Remove subscription?' })
      .getByRole('button', { name: 'Remove Subscription' })
      .click();
    await expect(toast(page, 'Subscription removed successfully')).toBeVisible();
    await expect(dialog.getByTestId('subscription-Basic Lifetime')).toHaveCount(0);
    await expect(pro).toBeVisible();
    await expect(rowPlans).not.toContainText('Basic Lifetime');
    await expect(rowPlans.locator('code')).toHaveText(['EXPORT_PDF', 'PRO']);

    // The last one removed, the row holds nothing again.
    await pro.getByRole('button', { name: 'Remove Pro Monthly' }).click();
    await page
      .getByRole('alertdialog', { name: 'Remove subscription?' })
      .getByRole('button', { name: 'Remove Subscription' })
      .click();
    await expect(toast(page, 'Subscription removed successfully')).toBeVisible();
    await expect(dialog.getByText('No subscriptions yet.')).toBeVisible();
    await expect(rowPlans).toHaveText('None');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByRole('list', { name: 'Plans of pilot' })).toHaveCount(0);
  });

  test('at 390 and 1280 px in both themes: no sideways page, reachable row actions, axe clean', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signInAsNewOwner(page, 'Lou Layout');
    const { application, base, pro, user } = await seedApplication(page, 'Layout Keys');
    await ownerPost(page, `${base}/licenses`, {
      planId: pro.id,
      count: 2,
      note: 'A long note about the shop order this key was sold in, kept for support',
      redeemBy: '2099-01-01T00:00:00.000Z',
    });
    await ownerPost(page, `${base}/users/${user.id}/subscriptions`, { planId: pro.id });

    const problems: string[] = [];
    await forEachTheme(page, async (theme) => {
      await page.goto(`/app/${application.id}`);
      await page.getByRole('tab', { name: 'Licences' }).click();
      await expect(keyRows(page)).toHaveCount(2);

      await forEachViewport(page, async (viewport) => {
        const label = `licences-${viewport.name}-${theme}`;
        await checkLayout(page, label, problems, { testInfo, fullPage: true });
        // Five buttons a row on a wide screen; on a phone, one menu of them a row.
        await checkRowActions(
          page.locator('table tbody button'),
          label,
          problems,
          viewport.name === 'phone' ? 2 : 10,
        );
        if (viewport.name === 'phone') {
          // Without scrolling sideways: each key's last four (what tells keys apart), clear of
          // the pinned actions.
          for (const row of await keyRows(page).all()) {
            const key = row.locator('td').first();
            await expect(key).toHaveText(/^…[0-9A-Z]{4}$/, { useInnerText: true });
            const actionsLeft = (await row.locator('td').last().boundingBox())!.x;
            const box = (await key.boundingBox())!;
            if (box.x < 0 || box.x + box.width > actionsLeft + 1) {
              problems.push(`${label}: a key's last four are out of view`);
            }
          }
        }

        await page.getByRole('button', { name: 'Generate Keys' }).click();
        const dialog = page.getByRole('dialog', { name: 'Generate Licence Keys' });
        await dialog.getByLabel('Mask').fill('XXXX');
        await dialog.getByRole('button', { name: 'Generate Keys' }).click();
        await expect(dialog.getByRole('alert')).toBeVisible();
        await checkDialog(page, dialog, `${label}-generate`, problems, {
          testInfo,
          width: viewport.width,
        });
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      });

      // The users table with its Plans column, then the user dialog, on a phone.
      await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
      await page.getByRole('tab', { name: /^Users/ }).click();
      await expect(
        page.getByTestId('user-row-pilot').getByRole('list', { name: 'Plans of pilot' }),
      ).toHaveText(/^Pro Monthly until /);
      await forEachViewport(page, (viewport) =>
        checkLayout(page, `users-${viewport.name}-${theme}`, problems, {
          testInfo,
          fullPage: true,
        }),
      );
      await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
      await (await rowAction(page, page.getByTestId('user-row-pilot'), 'Edit user')).click();
      const userDialog = page.getByRole('dialog', { name: 'Edit User' });
      await expect(userDialog.getByTestId('subscription-Pro Monthly')).toBeVisible();
      await expect(userDialog.getByTestId('meter-exports')).toContainText('0 of 500 used');
      await checkDialog(page, userDialog, `user-dialog-phone-${theme}`, problems, {
        testInfo,
        width: PHONE.width,
      });
      await page.keyboard.press('Escape');
      await expect(userDialog).toBeHidden();
    });
    expect(problems).toEqual([]);
  });
});
