import type { Plan } from '@latchkey/contracts';
import {
  checkLayout,
  forEachTheme,
  forEachViewport,
  PHONE,
  type Theme,
} from './support/layout-checks.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { rowAction } from './support/row-actions.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** Adds a problem unless `target` lies wholly within the window and left of `limit` (px). */
async function checkInView(
  target: Locator,
  what: string,
  limit: number,
  problems: string[],
): Promise<void> {
  const box = await target.boundingBox();
  if (!box || box.x < 0 || box.x + box.width > limit + 1) {
    problems.push(`${what} is out of view (${JSON.stringify(box)}, limit ${limit})`);
  }
}

/** Opens a row's menu from the keyboard, as a phone with a keyboard (or a switch) would. */
async function openMenuByKeyboard(page: Page, trigger: Locator): Promise<Locator> {
  // An earlier menu must be gone first: Enter on the trigger toggles, as a click does.
  const menu = page.getByRole('menu');
  await expect(menu).toHaveCount(0);
  await trigger.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  return menu;
}

test.describe('row actions: icon buttons on a wide screen, one labelled menu on a phone', () => {
  test('licence keys at 390 and 1280 px in both themes: last four, status and plan in view; the menu copies, bans and unbans', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signInAsNewOwner(page, 'Rhea Rows');
    const application = await createApplication(page, 'Row Keys');
    const base = `/api/applications/${application.id}`;
    const plan = await ownerPost<Plan>(page, `${base}/plans`, { name: 'Pro Monthly Lifetime' });
    await ownerPost(page, `${base}/licenses`, { planId: plan.id, count: 2 });
    const rows = page.locator('tr[data-testid^="license-row-"]');
    const problems: string[] = [];

    await forEachTheme(page, async (theme: Theme) => {
      await page.goto(`/app/${application.id}`);
      await page.getByRole('tab', { name: 'Licences' }).click();
      await expect(rows).toHaveCount(2);
      // The first row is banned in the light theme and unbanned in the dark one.
      const row = page.getByTestId((await rows.first().getAttribute('data-testid'))!);

      await forEachViewport(page, async (viewport) => {
        const label = `row-actions-licences-${viewport.name}-${theme}`;
        await checkLayout(page, label, problems, { testInfo, fullPage: true });
        if (viewport.name !== 'phone') {
          await expect(page.getByRole('button', { name: /^Actions for / })).toHaveCount(0);
          await expect(row.getByRole('button', { name: 'Copy key', exact: true })).toBeVisible();
          return;
        }

        // Each key's last four, its status and its plan, without scrolling sideways and clear
        // of the actions column.
        for (const each of await rows.all()) {
          const cells = each.locator('td');
          const key = cells.nth(0);
          await expect(key).toHaveText(/^…[0-9A-Z]{4}$/, { useInnerText: true });
          await expect(cells.nth(2)).toHaveText('Pro Monthly Lifetime');
          const actionsLeft = (await cells.last().boundingBox())!.x;
          for (const [index, what] of ['key', 'status', 'plan'].entries()) {
            await checkInView(cells.nth(index), `${label}: a row's ${what}`, actionsLeft, problems);
          }
          await expect(each.getByRole('button')).toHaveCount(1);
        }

        const lastFour = (await row.locator('td').first().innerText()).slice(1);
        const trigger = row.getByRole('button', { name: `Actions for key …${lastFour}` });
        const menu = await openMenuByKeyboard(page, trigger);
        const isBanned = theme === 'dark';
        await expect(menu.getByRole('menuitem')).toHaveText([
          'Reveal key',
          'Copy key',
          ...(isBanned ? ['Unban key'] : ['Send key by e-mail', 'Ban key']),
          'Delete key',
        ]);
        await checkLayout(page, `${label}-menu`, problems, { testInfo });
        const menuBox = (await menu.boundingBox())!;
        if (menuBox.x < 0 || menuBox.x + menuBox.width > PHONE.width) {
          problems.push(`${label}: the menu does not fit the screen`);
        }
        // Escape closes it and gives focus back to the button that opened it.
        await page.keyboard.press('Escape');
        await expect(menu).toBeHidden();
        await expect(trigger).toBeFocused();

        // Arrows reach Copy key; Enter copies the whole key.
        await openMenuByKeyboard(page, trigger);
        await expect(page.getByRole('menuitem', { name: 'Reveal key' })).toBeFocused();
        await page.keyboard.press('ArrowDown');
        await expect(page.getByRole('menuitem', { name: 'Copy key' })).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(toast(page, 'Licence key copied to clipboard')).toBeVisible();
        const copied = await page.evaluate(() => navigator.clipboard.readText());
        expect(copied.endsWith(lastFour)).toBe(true);
        expect(copied.length).toBeGreaterThan(8);

        if (!isBanned) {
          await (await rowAction(page, row, 'Ban key')).click();
          const ban = page.getByRole('dialog', { name: 'Ban licence key?' });
          await ban.getByLabel(/^Reason/).fill('Chargeback');
          await ban.getByRole('button', { name: 'Ban Key' }).click();
          await expect(toast(page, 'Licence key banned successfully')).toBeVisible();
          await expect(row).toContainText('Banned');
          // Focus returns to the row's menu button, not to the top of the page.
          await expect(trigger).toBeFocused();
        } else {
          await (await rowAction(page, row, 'Unban key')).click();
          await page
            .getByRole('alertdialog', { name: 'Unban licence key?' })
            .getByRole('button', { name: 'Unban Key' })
            .click();
          await expect(toast(page, 'Licence key unbanned successfully')).toBeVisible();
          await expect(row).toContainText('Unused');
        }
      });
    });
    expect(problems).toEqual([]);
  });

  test('the dashboard at 390 and 1280 px in both themes: names in full, one menu per row that reaches Edit, Manage and the users’ actions', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signInAsNewOwner(page, 'Dora Rows');
    // No place a browser would break it by itself: it must wrap anyway.
    const longName = `Nova${'Z'.repeat(60)}`;
    const application = await createApplication(page, longName);
    // The users are another application's: the Users tab's heading is not under test here.
    const withUsers = await createApplication(page, 'Orbit Client');
    await ownerPost(page, `/api/applications/${withUsers.id}/users`, {
      username: 'alice',
      password: 'pw-alice-123',
      email: 'alice@example.com',
    });
    const problems: string[] = [];

    await forEachTheme(page, async (theme: Theme) => {
      await page.goto('/dashboard');
      const row = page.getByTestId(`application-row-${application.id}`);
      await expect(row).toBeVisible();

      await forEachViewport(page, async (viewport) => {
        const label = `row-actions-dashboard-${viewport.name}-${theme}`;
        const isPhone = viewport.name === 'phone';
        await page.getByRole('tab', { name: 'Applications' }).click();
        await checkLayout(page, label, problems, { testInfo, fullPage: true });

        // The name in full, wrapped, never cut off.
        const name = row.getByText(longName, { exact: true });
        await expect(name).toBeVisible();
        expect(
          await name.evaluate((element) => element.scrollWidth <= element.clientWidth),
          `${label}: the name is cut off`,
        ).toBe(true);
        const menuButtons = page.getByRole('button', { name: /^Actions for / });
        await expect(menuButtons).toHaveCount(isPhone ? 2 : 0);
        await expect(row.getByRole('button')).toHaveCount(isPhone ? 1 : 5);

        if (isPhone) {
          const menu = await openMenuByKeyboard(
            page,
            row.getByRole('button', { name: `Actions for ${longName}` }),
          );
          await expect(menu.getByRole('menuitem')).toHaveText([
            'Reveal API key',
            'Copy API key',
            'View users',
            'Edit application',
            'Manage application',
            'Delete application',
          ]);
          await checkLayout(page, `${label}-menu`, problems, { testInfo });
          await page.keyboard.press('Escape');
          await expect(menu).toBeHidden();
        }

        // Edit opens the application's dialog, without selecting the row for it.
        await (await rowAction(page, row, 'Edit application')).click();
        const dialog = page.getByRole('dialog');
        await expect(dialog).toContainText(longName);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();

        // Manage goes to the application's page.
        await (await rowAction(page, row, 'Manage application')).click();
        await expect(page).toHaveURL(`/app/${application.id}`);
        await page.goBack();
        await expect(row).toBeVisible();

        // The users table: the row's menu (or buttons) pause and unpause alice.
        const withUsersRow = page.getByTestId(`application-row-${withUsers.id}`);
        await (await rowAction(page, withUsersRow, 'View users')).click();
        await expect(page.getByRole('tab', { name: 'Users (Orbit Client)' })).toHaveAttribute(
          'aria-selected',
          'true',
        );
        const alice = page.getByTestId('user-row-alice');
        await expect(alice).toBeVisible();
        await expect(alice.getByRole('button', { name: 'Actions for alice' })).toHaveCount(
          isPhone ? 1 : 0,
        );
        await checkLayout(page, `${label}-users`, problems, { testInfo, fullPage: true });
        await (await rowAction(page, alice, 'Pause user')).click();
        await expect(alice).toContainText('Paused');
        await expect(toast(page, 'User status updated successfully')).toBeVisible();
        await (await rowAction(page, alice, 'Unpause user')).click();
        await expect(alice).toContainText('Active');
        if (isPhone) {
          await openMenuByKeyboard(page, alice.getByRole('button', { name: 'Actions for alice' }));
          await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText([
            'Edit user',
            'Pause user',
            'Delete user',
          ]);
          await page.keyboard.press('Escape');
        }
      });
    });
    expect(problems).toEqual([]);
  });
});
