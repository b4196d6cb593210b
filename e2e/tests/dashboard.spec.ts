import { PHONE } from './support/layout-checks.ts';
import { submitNewApplication } from './support/new-application-dialog.ts';
import { createApplication } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { rowAction } from './support/row-actions.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

const API_KEY_PATTERN = /^lk_live_[A-Za-z0-9_-]{43}$/;
const MASKED_KEY_PATTERN = /^lk_live_[A-Za-z0-9_-]{4}•{20}[A-Za-z0-9_-]{8}$/;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function openDashboard(page: Page): Promise<void> {
  await signInAsNewOwner(page, 'Dana Dashboard');
  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

/** Creates an application through the dashboard's dialog; returns its row. */
async function createApplicationInDialog(
  page: Page,
  name: string,
  description?: string,
): Promise<Locator> {
  const dialog = await submitNewApplication(page, name, description);
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  return row;
}

test.describe('dashboard', () => {
  test('creates an application through the dialog, reveals and copies its key, edits its settings and messages, and deletes it after confirming', async ({
    page,
  }) => {
    await openDashboard(page);
    await expect(page.getByText('Welcome back, Dana.')).toBeVisible();
    await expect(page.getByTestId('account-type')).toHaveText('Premium');
    await expect(page.getByTestId('stat-applications')).toHaveText('0');
    await expect(page.getByRole('navigation', { name: 'Main' })).toContainText('Docs');
    await expect(page.getByRole('heading', { name: 'No Applications' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Users' })).toBeDisabled();

    // Blank name: the spec's message, nothing sent.
    await page.getByRole('button', { name: 'Create Application' }).click();
    const createDialog = page.getByRole('dialog', { name: 'New Application' });
    await createDialog.getByLabel('Name').fill('   ');
    await createDialog.getByRole('button', { name: 'Create Application' }).click();
    await expect(createDialog.getByRole('alert')).toHaveText('Please enter an application name');
    // Enter submits the form.
    await createDialog.getByLabel('Name').fill('Acme Desktop');
    await createDialog.getByLabel('Description (optional)').fill('Licensing for Acme');
    await createDialog.getByLabel('Name').press('Enter');
    await expect(toast(page, 'Application created successfully')).toBeVisible();
    await expect(createDialog).toBeHidden();

    const row = page.getByRole('row').filter({ hasText: 'Acme Desktop' });
    await expect(row).toContainText('Licensing for Acme');
    await expect(row).toContainText('Active');
    await expect(row).toContainText(new Date().toLocaleDateString('en-US'));
    await expect(page.getByTestId('stat-applications')).toHaveText('1');
    await expect(page.getByTestId('stat-active-apps')).toHaveText('1');

    // Masked: 12 characters, 20 bullets, the last 8.
    const key = row.getByTestId('api-key');
    await expect(key).toHaveText(MASKED_KEY_PATTERN);
    await row.getByRole('button', { name: 'Reveal API key' }).click();
    await expect(key).toHaveText(API_KEY_PATTERN);
    const apiKey = (await key.textContent())!;
    await row.getByRole('button', { name: 'Hide API key' }).click();
    await expect(key).toHaveText(MASKED_KEY_PATTERN);
    expect(await key.textContent()).toBe(
      `${apiKey.slice(0, 12)}${'•'.repeat(20)}${apiKey.slice(-8)}`,
    );

    await row.getByRole('button', { name: 'Copy API key' }).click();
    await expect(toast(page, 'API key copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);

    // Edit: the one settings dialog, every setting and message in it.
    await row.getByRole('button', { name: 'Edit application' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Application Settings' });
    const nameField = editDialog.getByRole('textbox', { name: 'Application Name' });
    const versionField = editDialog.getByRole('textbox', { name: 'Version', exact: true });
    await expect(nameField).toHaveValue('Acme Desktop');
    await expect(versionField).toHaveAttribute('placeholder', '1.0.0');
    await nameField.fill('Acme Pro');
    await editDialog
      .getByRole('textbox', { name: 'Description', exact: true })
      .fill('The professional edition');
    await versionField.fill('2.1.0');
    await editDialog.getByRole('switch', { name: 'Application Active' }).click();
    await expect(editDialog.getByText(/device they first log in from/)).toBeVisible();
    await editDialog.getByRole('switch', { name: 'Hardware ID Locking' }).click();
    await expect(editDialog.getByLabel('Version mismatch message')).toHaveValue(/update/);
    await editDialog.getByLabel('Login success message').fill('Welcome aboard!');
    await editDialog
      .getByLabel('HWID mismatch message')
      .fill('Wrong device (HWID).\nAsk support to release it.');
    await editDialog.getByRole('button', { name: 'Update Application' }).click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await expect(editDialog).toBeHidden();
    await expect(row).toHaveCount(0);
    const editedRow = page.getByRole('row').filter({ hasText: 'Acme Pro' });
    await expect(editedRow).toContainText('Inactive');
    await expect(page.getByTestId('stat-active-apps')).toHaveText('0');

    // The changes are the server's now, not just the page's.
    await page.reload();
    await editedRow.getByRole('button', { name: 'Edit application' }).click();
    await expect(nameField).toHaveValue('Acme Pro');
    await expect(editDialog.getByRole('textbox', { name: 'Description', exact: true })).toHaveValue(
      'The professional edition',
    );
    await expect(versionField).toHaveValue('2.1.0');
    await expect(editDialog.getByRole('switch', { name: 'Application Active' })).not.toBeChecked();
    await expect(editDialog.getByRole('switch', { name: 'Hardware ID Locking' })).toBeChecked();
    await expect(editDialog.getByLabel('Login success message')).toHaveValue('Welcome aboard!');
    await expect(editDialog.getByLabel('HWID mismatch message')).toHaveValue(
      'Wrong device (HWID).\nAsk support to release it.',
    );
    // An emptied message is refused before anything is sent, at its field.
    await editDialog.getByLabel('Login failed message').fill('');
    await editDialog.getByRole('button', { name: 'Update Application' }).click();
    await expect(editDialog.getByLabel('Login failed message')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await expect(editDialog.getByText('Messages cannot be empty')).toBeVisible();
    await expect(editDialog.getByLabel('Login failed message')).toBeFocused();
    await editDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(editDialog).toBeHidden();

    // Delete asks first, since it destroys every end user; cancelling keeps the application.
    await editedRow.getByRole('button', { name: 'Delete application' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete application?' });
    await expect(confirm).toContainText('Acme Pro');
    await expect(confirm).toContainText('cannot be undone');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(editedRow).toBeVisible();

    await editedRow.getByRole('button', { name: 'Delete application' }).click();
    await confirm.getByRole('button', { name: 'Delete Application' }).click();
    await expect(toast(page, 'Application deleted successfully')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No Applications' })).toBeVisible();
    await expect(page.getByTestId('stat-applications')).toHaveText('0');
    const applications = await page.evaluate(async () =>
      (await fetch('/api/applications', { credentials: 'include' })).json(),
    );
    expect(applications).toEqual([]);
  });

  test('a long name wraps on a phone, in the table and in dialogs, keeping buttons in view', async ({
    page,
  }) => {
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await signInAsNewOwner(page, 'Lena Longname');
    // The longest name allowed, with nowhere a browser would break it by itself.
    const name = 'Z'.repeat(100);
    await createApplication(page, name);
    await page.goto('/dashboard');
    const row = page.getByRole('row').filter({ hasText: name });
    // The table shows the name in full, wrapped, not cut off with an ellipsis.
    const nameInRow = row.getByText(name, { exact: true });
    await expect(nameInRow).toBeVisible();
    expect(
      await nameInRow.evaluate((element) => element.scrollWidth <= element.clientWidth),
      'the name is cut off',
    ).toBe(true);
    const dialogs = [
      {
        open: 'Edit application',
        role: 'dialog',
        name: 'Application Settings',
        act: 'Update Application',
      },
      {
        open: 'Delete application',
        role: 'alertdialog',
        name: 'Delete application?',
        act: 'Delete Application',
      },
    ] as const;
    for (const { open, role, name: title, act } of dialogs) {
      // On a phone the row's actions are the items of its one menu.
      await (await rowAction(page, row, open)).click();
      const dialog = page.getByRole(role, { name: title });
      await expect(dialog).toContainText(name);
      const box = (await dialog.boundingBox())!;
      expect(box.x, `${title}: left edge`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${title}: right edge`).toBeLessThanOrEqual(PHONE.width);
      expect(
        await dialog.evaluate((element) => element.scrollWidth - element.clientWidth),
        `${title}: scrolls sideways`,
      ).toBe(0);
      for (const button of [act, 'Cancel']) {
        const target = dialog.getByRole('button', { name: button, exact: true });
        await target.scrollIntoViewIfNeeded();
        const buttonBox = (await target.boundingBox())!;
        expect(buttonBox.x + buttonBox.width, `${title}: ${button}`).toBeLessThanOrEqual(
          box.x + box.width,
        );
      }
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect(dialog).toBeHidden();
    }
    // Its users' card is titled with the name, which wraps there too.
    await (await rowAction(page, row, 'View users')).click();
    await expect(page.getByRole('heading', { name: `Users of ${name}` })).toBeVisible();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      'the Users tab scrolls sideways',
    ).toBe(0);
  });

  test('manages the users of the selected application on the Users tab', async ({ page }) => {
    await openDashboard(page);
    await createApplicationInDialog(page, 'Orbit Client', 'Satellite tools');
    const targetRow = await createApplicationInDialog(page, 'Nova Client');
    await expect(page.getByRole('tab', { name: 'Users' })).toBeDisabled();

    // Selecting by clicking the row enables the tab, named after the application.
    await targetRow.getByText('Nova Client').click();
    await expect(targetRow).toHaveAttribute('aria-current', 'true');
    const usersTab = page.getByRole('tab', { name: 'Users (Nova Client)' });
    await expect(usersTab).toBeEnabled();
    await usersTab.click();
    await expect(page.getByRole('heading', { name: 'No Users' })).toBeVisible();

    // The dashboard requires username, e-mail and password.
    await page.getByRole('button', { name: 'Add User' }).first().click();
    const addDialog = page.getByRole('dialog', { name: 'Add User' });
    await addDialog.getByLabel('Username').fill('alice');
    await addDialog.getByLabel('Password').fill('correct horse');
    await addDialog.getByRole('button', { name: 'Create User' }).click();
    await expect(addDialog.getByRole('alert')).toHaveText('Please fill in all required fields');
    await addDialog.getByLabel('Email').fill('alice@example.com');
    await addDialog.getByLabel('Expires At (optional)').fill('2031-03-04T05:06');
    await addDialog.getByLabel('HWID (optional)').fill('PC-ALICE-0001');
    await addDialog.getByLabel('Password').press('Enter');
    await expect(toast(page, 'User created successfully')).toBeVisible();
    await expect(addDialog).toBeHidden();

    const alice = page.getByTestId('user-row-alice');
    await expect(alice).toContainText('alice@example.com');
    await expect(alice).toContainText('Active');
    // HWID lock is off for this application, whatever the user's HWID.
    await expect(alice).toContainText('Disabled');
    await expect(alice.getByTestId('login-attempts')).toHaveText('0');
    await expect(alice).toContainText('Mar 4, 2031, 5:06 AM');
    await expect(alice).toContainText('Never');
    await expect(page.getByTestId('stat-total-users')).toHaveText('1');

    // Pause and unpause: on the dashboard their toasts speak of a status change.
    await alice.getByRole('button', { name: 'Pause user' }).click();
    await expect(toast(page, 'User status updated successfully')).toBeVisible();
    await expect(alice).toContainText('Paused');
    await alice.getByRole('button', { name: 'Unpause user' }).click();
    await expect(alice.getByRole('button', { name: 'Pause user' })).toBeVisible();
    await expect(alice).toContainText('Active');

    // Edit: the expiry comes back to the minute, in local time; the Devices section releases
    // the HWID at once.
    await alice.getByRole('button', { name: 'Edit user' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(editDialog.getByLabel('Expires At')).toHaveValue('2031-03-04T05:06');
    await editDialog.getByRole('button', { name: 'Remove all' }).click();
    await page
      .getByRole('alertdialog', { name: 'Remove all devices?' })
      .getByRole('button', { name: 'Remove All Devices' })
      .click();
    await expect(toast(page, 'All devices removed successfully')).toBeVisible();
    await editDialog.getByLabel('Email').fill('alice@acme.test');
    await editDialog.getByLabel('Expires At').fill('2020-01-01T00:00');
    await editDialog.getByRole('radio', { name: 'Paused' }).check();
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'User updated successfully')).toBeVisible();
    await expect(alice).toContainText('alice@acme.test');
    // Expired outranks Paused.
    await expect(alice).toContainText('Expired');
    await alice.getByRole('button', { name: 'Edit user' }).click();
    await expect(editDialog.getByText('No devices yet')).toBeVisible();
    await expect(editDialog.getByRole('radio', { name: 'Paused' })).toBeChecked();
    await editDialog.getByRole('button', { name: 'Cancel' }).click();

    // With HWID lock on, a user without a bound device shows "Not Set".
    await page.getByRole('tab', { name: 'Applications' }).click();
    await targetRow.getByRole('button', { name: 'Edit application' }).click();
    const appDialog = page.getByRole('dialog', { name: 'Application Settings' });
    await appDialog.getByRole('switch', { name: 'Hardware ID Locking' }).click();
    await appDialog.getByRole('button', { name: 'Update Application' }).click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await page.getByRole('tab', { name: 'Users (Nova Client)' }).click();
    await expect(alice).toContainText('Not Set');

    // Deleting asks first.
    await alice.getByRole('button', { name: 'Delete user' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete user?' });
    await expect(confirm).toContainText('cannot be undone');
    await confirm.getByRole('button', { name: 'Delete User' }).click();
    await expect(toast(page, 'User deleted successfully')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No Users' })).toBeVisible();
    await expect(page.getByTestId('stat-total-users')).toHaveText('0');

    // The "View users" action selects another application and opens its tab.
    await page.getByRole('tab', { name: 'Applications' }).click();
    const orbitRow = page.getByRole('row').filter({ hasText: 'Orbit Client' });
    await orbitRow.getByRole('button', { name: 'View users' }).click();
    await expect(page.getByRole('tab', { name: 'Users (Orbit Client)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('heading', { name: 'Users of Orbit Client' })).toBeVisible();

    // Deleting the selected application clears the selection; the one left is then the
    // account's only application, so it is selected instead.
    await page.getByRole('tab', { name: 'Applications' }).click();
    await orbitRow.getByRole('button', { name: 'Delete application' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete application?' })
      .getByRole('button', { name: 'Delete Application' })
      .click();
    await expect(toast(page, 'Application deleted successfully')).toBeVisible();
    await expect(orbitRow).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Users (Nova Client)' })).toBeEnabled();
    await expect(targetRow).toHaveAttribute('aria-current', 'true');

    // Manage opens the application's own page.
    await targetRow.getByRole('link', { name: 'Manage application' }).click();
    await expect(page).toHaveURL(/\/app\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Nova Client', level: 1 })).toBeVisible();
  });
});
