import {
  VARIABLE_NAME_INVALID,
  VARIABLE_NAME_TAKEN,
  type AppUser,
  type ApplicationVariable,
  type UserVariable,
} from '@latchkey/contracts';
import { openNewApplicationTab } from './support/application-page.ts';
import {
  checkDialog,
  checkLayout,
  checkRowActions,
  forEachTheme,
  forEachViewport,
} from './support/layout-checks.ts';
import { createApplication, ownerGet, ownerPost, ownerPut } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { rowAction } from './support/row-actions.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

function variableRow(page: Page, name: string): Locator {
  return page.getByTestId(`variable-row-${name}`);
}

test.describe('variables of the application page and of an end user', () => {
  test('creates, searches, edits and deletes application variables', async ({ page }) => {
    await signInAsNewOwner(page, 'Vera Variables');
    const application = await openNewApplicationTab(page, 'Variable Desk', 'Variables');
    await expect(page.getByRole('heading', { name: 'No variables yet' })).toBeVisible();

    // Create: the name rule is checked before anything is sent.
    await page.getByRole('button', { name: 'Create Variable' }).first().click();
    const createDialog = page.getByRole('dialog', { name: 'Create Variable' });
    await createDialog.getByLabel('Name').fill('kill switch');
    await createDialog.getByRole('button', { name: 'Create Variable' }).click();
    await expect(createDialog.getByRole('alert')).toHaveText(VARIABLE_NAME_INVALID);
    await createDialog.getByLabel('Name').fill('kill_switch');
    await createDialog.getByLabel('Value').fill('off');
    // A new variable requires a session unless the owner says otherwise.
    await expect(createDialog.getByRole('switch', { name: 'Requires session' })).toBeChecked();
    await createDialog.getByRole('button', { name: 'Create Variable' }).click();
    await expect(toast(page, 'Variable created successfully')).toBeVisible();
    await expect(createDialog).toBeHidden();
    await expect(variableRow(page, 'kill_switch')).toContainText('off');
    await expect(variableRow(page, 'kill_switch')).toContainText('Requires session');

    await page.getByRole('button', { name: 'Create Variable' }).click();
    await createDialog.getByLabel('Name').fill('download.mirror');
    await createDialog.getByLabel('Value').fill('https://eu.example.com/\nsecond line');
    await createDialog.getByRole('switch', { name: 'Requires session' }).click();
    await createDialog.getByRole('button', { name: 'Create Variable' }).click();
    await expect(toast(page, 'Variable created successfully')).toBeVisible();
    // The dialog closes once the lists are re-read; until then the page's own Create
    // Variable button is behind it.
    await expect(createDialog).toBeHidden();
    const mirror = variableRow(page, 'download.mirror');
    await expect(mirror).toContainText('Public');
    await expect(mirror).toContainText('https://eu.example.com/…');

    // A name the application already has: the server's 409, the dialog stays.
    await page.getByRole('button', { name: 'Create Variable' }).click();
    await createDialog.getByLabel('Name').fill('kill_switch');
    await createDialog.getByRole('button', { name: 'Create Variable' }).click();
    await expect(toast(page, VARIABLE_NAME_TAKEN)).toBeVisible();
    await expect(createDialog).toBeVisible();
    await createDialog.getByRole('button', { name: 'Cancel' }).click();

    // Search names and values; a search that matches nothing says so.
    const search = page.getByRole('searchbox', { name: 'Search variables' });
    await search.fill('EU.EXAMPLE');
    await expect(mirror).toBeVisible();
    await expect(variableRow(page, 'kill_switch')).toHaveCount(0);
    await search.fill('nothing-like-this');
    await expect(page.getByRole('heading', { name: 'No matching variables' })).toBeVisible();
    await search.fill('');
    await expect(variableRow(page, 'kill_switch')).toBeVisible();

    // Edit from the saved values: the kill switch goes on.
    await variableRow(page, 'kill_switch')
      .getByRole('button', { name: 'Edit variable kill_switch' })
      .click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Variable' });
    await expect(editDialog.getByLabel('Value')).toHaveValue('off');
    await editDialog.getByLabel('Value').fill('on');
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'Variable updated successfully')).toBeVisible();
    await expect(variableRow(page, 'kill_switch')).toContainText('on');
    const saved = await ownerGet<ApplicationVariable[]>(
      page,
      `/api/applications/${application.id}/variables`,
    );
    expect(saved.find((variable) => variable.name === 'kill_switch')?.value).toBe('on');

    // Delete: Cancel keeps it, confirming deletes it.
    const deleteButton = mirror.getByRole('button', { name: 'Delete variable download.mirror' });
    await deleteButton.click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete variable?' });
    await expect(confirm).toContainText('download.mirror');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(mirror).toBeVisible();
    await deleteButton.click();
    await confirm.getByRole('button', { name: 'Delete Variable' }).click();
    await expect(toast(page, 'Variable deleted successfully')).toBeVisible();
    await expect(mirror).toHaveCount(0);
    await expect(variableRow(page, 'kill_switch')).toBeVisible();
  });

  test('adds, edits and deletes an end user’s variables in the Edit User dialog', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Uma Uservars');
    const application = await createApplication(page, 'User Variable Desk');
    const usersPath = `/api/applications/${application.id}/users`;
    const user = await ownerPost<AppUser>(page, usersPath, {
      username: 'pilot',
      password: 'correct horse battery staple',
    });
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: /^Users/ }).click();
    await page.getByTestId('user-row-pilot').getByRole('button', { name: 'Edit user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(dialog.getByText('No variables yet.')).toBeVisible();

    const add = dialog.getByRole('group', { name: 'Add a variable' });
    await add.getByLabel('New variable name').fill('seats');
    await add.getByLabel('Value').fill('5');
    await add.getByRole('switch', { name: /Read-only/ }).click();
    await add.getByRole('button', { name: 'Add Variable' }).click();
    await expect(toast(page, 'Variable saved successfully')).toBeVisible();
    const seats = dialog.getByTestId('user-variable-seats');
    await expect(seats).toContainText('5');
    await expect(seats).toContainText('Read-only');

    // Enter in the name field saves the variable, not the account form around it.
    await add.getByLabel('New variable name').fill('theme');
    await add.getByLabel('Value').fill('dark');
    await add.getByLabel('New variable name').press('Enter');
    await expect(dialog.getByTestId('user-variable-theme')).toContainText('dark');
    await expect(dialog).toBeVisible();

    // Edit: the value and read-only; the name stays.
    await seats.getByRole('button', { name: 'Edit variable seats' }).click();
    const edit = dialog.getByRole('group', { name: 'Edit variable seats' });
    await expect(edit.getByLabel('Name')).toHaveValue('seats');
    await edit.getByLabel('Value').fill('10');
    await edit.getByRole('switch', { name: /Read-only/ }).click();
    await edit.getByRole('button', { name: 'Save Variable' }).click();
    await expect(seats).toContainText('10');
    await expect(seats).not.toContainText('Read-only');
    expect(await ownerGet<UserVariable[]>(page, `${usersPath}/${user.id}/variables`)).toEqual([
      expect.objectContaining({ name: 'seats', value: '10', readOnly: false }),
      expect.objectContaining({ name: 'theme', value: 'dark', readOnly: false }),
    ]);

    // Delete after a confirmation.
    await dialog
      .getByTestId('user-variable-theme')
      .getByRole('button', { name: 'Delete variable theme' })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Delete variable?' })
      .getByRole('button', { name: 'Delete Variable' })
      .click();
    await expect(toast(page, 'Variable deleted successfully')).toBeVisible();
    await expect(dialog.getByTestId('user-variable-theme')).toHaveCount(0);
    await expect(seats).toBeVisible();
  });

  test('at 390 and 1280 px in both themes: no sideways page, reachable actions, axe clean', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signInAsNewOwner(page, 'Lior Layout');
    const application = await createApplication(page, 'Layout Variables');
    const variablesPath = `/api/applications/${application.id}/variables`;
    await ownerPost(page, variablesPath, {
      name: 'a.rather.long.variable.name.that.keeps.going_and_going',
      value: `{"mirrors":["${'https://downloads.example.com/'.repeat(6)}"]}`,
    });
    await ownerPost(page, variablesPath, {
      name: 'kill_switch',
      value: 'off',
      requiresSession: false,
    });
    const user = await ownerPost<AppUser>(page, `/api/applications/${application.id}/users`, {
      username: 'pilot',
      password: 'correct horse battery staple',
    });
    await ownerPut(page, `/api/applications/${application.id}/users/${user.id}/variables/theme`, {
      value: 'dark',
      readOnly: true,
    });

    const problems: string[] = [];
    await forEachTheme(page, async (theme) => {
      await page.goto(`/app/${application.id}`);
      await page.getByRole('tab', { name: 'Variables' }).click();
      await expect(variableRow(page, 'kill_switch')).toContainText('Public');

      await forEachViewport(page, async (viewport) => {
        const label = `variables-${viewport.name}-${theme}`;
        await checkLayout(page, label, problems, { testInfo, fullPage: true });
        await checkRowActions(page.locator('table tbody button'), label, problems, 4);

        await page.getByRole('button', { name: 'Create Variable' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create Variable' });
        await dialog.getByRole('button', { name: 'Create Variable' }).click();
        await expect(dialog.getByRole('alert')).toBeVisible();
        await checkDialog(page, dialog, `${label}-dialog`, problems, {
          testInfo,
          width: viewport.width,
        });
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();

        // The user dialog with its Variables section.
        await page.getByRole('tab', { name: /^Users/ }).click();
        // On a phone the row's actions are the items of its one menu.
        await (await rowAction(page, page.getByTestId('user-row-pilot'), 'Edit user')).click();
        const userDialog = page.getByRole('dialog', { name: 'Edit User' });
        await expect(userDialog.getByTestId('user-variable-theme')).toContainText('Read-only');
        await userDialog.getByTestId('user-variable-theme').scrollIntoViewIfNeeded();
        await checkDialog(page, userDialog, `${label}-user-dialog`, problems, {
          testInfo,
          width: viewport.width,
        });
        await page.keyboard.press('Escape');
        await expect(userDialog).toBeHidden();
        await page.getByRole('tab', { name: 'Variables' }).click();
      });
    });
    expect(problems).toEqual([]);
  });
});
