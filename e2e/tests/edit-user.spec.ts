import type { AppUser, Device } from '@latchkey/contracts';
import {
  checkDialog,
  checkLayout,
  forEachTheme,
  forEachViewport,
} from './support/layout-checks.ts';
import { createApplication, ownerGet, ownerPost } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { rowAction } from './support/row-actions.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

const PASSWORD = 'correct horse battery staple';

/** The users table's row of `username`, and its one status badge. */
function userRow(page: Page, username: string): { row: Locator; status: Locator } {
  const row = page.getByTestId(`user-row-${username}`);
  return { row, status: row.locator('[data-status]') };
}

/** Opens the Edit User dialog of `username` from the users table, at any width. */
async function openEditUser(page: Page, username: string): Promise<Locator> {
  const { row } = userRow(page, username);
  await (await rowAction(page, row, 'Edit user')).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('the Edit User dialog', () => {
  test('at 1280 and 390 px in both themes: one status badge and control, the sections that apply at once set apart, no Hardware ID field; axe clean', async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    await signInAsNewOwner(page, 'Esme Editor');
    const application = await createApplication(page, 'Status Desk');
    const usersPath = `/api/applications/${application.id}/users`;
    const problems: string[] = [];

    await forEachTheme(page, async (theme) => {
      await forEachViewport(page, async (viewport) => {
        const label = `edit-user-${viewport.name}-${theme}`;
        // A user of its own for each pass, bound to one device from the start.
        const username = `pilot-${viewport.name}-${theme}`;
        const hwid = `PC-${viewport.name}-${theme}-0001`.toUpperCase();
        const user = await ownerPost<AppUser>(page, usersPath, {
          username,
          password: PASSWORD,
          hwid,
        });
        await page.goto(`/app/${application.id}`);
        await page.getByRole('tab', { name: /^Users/ }).click();
        const { status: rowStatus } = userRow(page, username);
        await expect(rowStatus).toHaveText('Active');

        const dialog = await openEditUser(page, username);
        await expect(dialog.getByTestId('edit-user-status')).toHaveText('Current status: Active');
        const status = dialog.getByRole('group', { name: 'Status' });
        await expect(status.getByRole('radio', { name: 'Active' })).toBeChecked();
        await expect(status).toContainText('made active again by extending the expiry');
        await expect(dialog.getByRole('checkbox')).toHaveCount(0);

        // No lone Hardware ID field: the Devices section, apart from the form, is the truth.
        await expect(dialog.getByRole('textbox', { name: /Hardware ID|HWID/ })).toHaveCount(0);
        const appliedAtOnce = dialog.getByRole('region', { name: 'These apply at once' });
        await expect(appliedAtOnce).toContainText('Save Changes covers only the fields above');
        const devices = appliedAtOnce.getByRole('region', { name: 'Devices' });
        await expect(devices.getByRole('listitem')).toHaveCount(1);
        await expect(devices).toContainText(hwid.slice(-6));
        for (const section of ['Subscriptions', 'Variables']) {
          await expect(appliedAtOnce.getByRole('region', { name: section })).toBeVisible();
        }
        // The form's Save Changes is not among the sections it does not send.
        await expect(appliedAtOnce.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);

        await checkDialog(page, dialog, `${label}-dialog`, problems, {
          testInfo,
          width: viewport.width,
        });
        await appliedAtOnce.scrollIntoViewIfNeeded();
        await checkDialog(page, dialog, `${label}-dialog-sections`, problems, {
          testInfo,
          width: viewport.width,
        });

        await status.getByRole('radio', { name: 'Paused' }).check();
        await dialog.getByRole('button', { name: 'Save Changes' }).click();
        await expect(toast(page, 'User updated successfully')).toBeVisible();
        await expect(dialog).toBeHidden();
        await expect(rowStatus).toHaveText('Paused');
        await checkLayout(page, `${label}-table`, problems);

        // Saved as the server's flags, and the save left the device bound.
        const [saved] = await ownerGet<AppUser[]>(page, `${usersPath}?search=${username}`);
        expect(saved).toMatchObject({ id: user.id, isActive: true, isPaused: true, hwid });
        const bound = await ownerGet<Device[]>(page, `${usersPath}/${user.id}/devices`);
        expect(bound.map((device) => device.hwid)).toEqual([hwid]);

        const reopened = await openEditUser(page, username);
        await expect(reopened.getByTestId('edit-user-status')).toHaveText('Current status: Paused');
        await expect(
          reopened.getByRole('group', { name: 'Status' }).getByRole('radio', { name: 'Paused' }),
        ).toBeChecked();
        await page.keyboard.press('Escape');
        await expect(reopened).toBeHidden();
      });
    });
    expect(problems).toEqual([]);
  });

  test('disables a user with the keyboard, and shows an expired user as Expired', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Kai Keyboard');
    const application = await createApplication(page, 'Keyboard Desk');
    const usersPath = `/api/applications/${application.id}/users`;
    await ownerPost<AppUser>(page, usersPath, { username: 'keys', password: PASSWORD });
    await ownerPost<AppUser>(page, usersPath, {
      username: 'lapsed',
      password: PASSWORD,
      expiresAt: '2020-01-01T00:00:00.000Z',
    });
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: /^Users/ }).click();
    await expect(userRow(page, 'lapsed').status).toHaveText('Expired');

    const dialog = await openEditUser(page, 'keys');
    const status = dialog.getByRole('group', { name: 'Status' });
    // The browser's radio group: arrows move the choice.
    await status.getByRole('radio', { name: 'Active' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(status.getByRole('radio', { name: 'Disabled' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'User updated successfully')).toBeVisible();
    await expect(userRow(page, 'keys').status).toHaveText('Disabled');

    // An expired user: the badge says so; the state set by hand is still Active.
    const lapsed = await openEditUser(page, 'lapsed');
    await expect(lapsed.getByTestId('edit-user-status')).toHaveText('Current status: Expired');
    await expect(
      lapsed.getByRole('group', { name: 'Status' }).getByRole('radio', { name: 'Active' }),
    ).toBeChecked();
  });
});
