import {
  VARIABLE_NAME_INVALID,
  VARIABLE_NAME_TAKEN,
  type AppUser,
  type Application,
  type ApplicationVariable,
  type UserVariable,
} from '@latchkey/contracts';
import { settle, seriousAxeViolations } from './support/layout-checks.ts';
import { consoleOriginHeaders, signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';

/** The console's own storage key (apps/console/src/lib/theme.ts). */
const THEME_STORAGE_KEY = 'latchkey-auth-theme';

/** A toast by its text (by markup: an open modal makes everything else aria-hidden). */
function toast(page: Page, text: string): Locator {
  return page.locator('li[data-state="open"]').getByText(text, { exact: true });
}

/** Calls the owner API as the signed-in owner; page.request sends no Origin of its own. */
async function ownerSend<T>(
  page: Page,
  method: 'POST' | 'PUT',
  path: string,
  data: unknown,
): Promise<T> {
  const response = await page.request.fetch(path, {
    method,
    headers: consoleOriginHeaders(page),
    data,
  });
  expect(response.status(), `${method} ${path}`).toBe(method === 'POST' ? 201 : 200);
  return (await response.json()) as T;
}

async function ownerGet<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.status(), `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

/** A new application of the signed-in owner, its management page open on the Variables tab. */
async function openVariablesTab(page: Page, name: string): Promise<Application> {
  const application = await ownerSend<Application>(page, 'POST', '/api/applications', { name });
  await page.goto(`/app/${application.id}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Variables' }).click();
  return application;
}

function variableRow(page: Page, name: string): Locator {
  return page.getByTestId(`variable-row-${name}`);
}

test.describe('variables of the application page and of an end user', () => {
  test('creates, searches, edits and deletes application variables', async ({ page }) => {
    await signInAsNewOwner(page, 'Vera Variables');
    const application = await openVariablesTab(page, 'Variable Desk');
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
    const application = await ownerSend<Application>(page, 'POST', '/api/applications', {
      name: 'User Variable Desk',
    });
    const usersPath = `/api/applications/${application.id}/users`;
    const user = await ownerSend<AppUser>(page, 'POST', usersPath, {
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
    const application = await ownerSend<Application>(page, 'POST', '/api/applications', {
      name: 'Layout Variables',
    });
    const variablesPath = `/api/applications/${application.id}/variables`;
    await ownerSend(page, 'POST', variablesPath, {
      name: 'a.rather.long.variable.name.that.keeps.going_and_going',
      value: `{"mirrors":["${'https://downloads.example.com/'.repeat(6)}"]}`,
    });
    await ownerSend(page, 'POST', variablesPath, {
      name: 'kill_switch',
      value: 'off',
      requiresSession: false,
    });
    const user = await ownerSend<AppUser>(
      page,
      'POST',
      `/api/applications/${application.id}/users`,
      {
        username: 'pilot',
        password: 'correct horse battery staple',
      },
    );
    await ownerSend(
      page,
      'PUT',
      `/api/applications/${application.id}/users/${user.id}/variables/theme`,
      {
        value: 'dark',
        readOnly: true,
      },
    );

    const problems: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate(
        ([key, value]) => localStorage.setItem(key!, value!),
        [THEME_STORAGE_KEY, theme],
      );
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/app/${application.id}`);
      await page.getByRole('tab', { name: 'Variables' }).click();
      await expect(variableRow(page, 'kill_switch')).toContainText('Public');

      for (const viewport of [
        { name: 'phone', width: 390, height: 844 },
        { name: 'desktop', width: 1280, height: 800 },
      ]) {
        const label = `variables-${viewport.name}-${theme}`;
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await settle(page);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        if (overflow > 0) problems.push(`${label}: the page scrolls sideways by ${overflow} px`);
        problems.push(...(await seriousAxeViolations(page, label)));
        await page.screenshot({ path: testInfo.outputPath(`${label}.png`), fullPage: true });

        const actions = page.locator('table tbody button');
        await expect(actions).toHaveCount(4);
        for (let index = 0; index < 4; index += 1) {
          const action = actions.nth(index);
          try {
            await action.click({ trial: true, timeout: 3_000 });
          } catch {
            problems.push(`${label}: "${await action.getAttribute('aria-label')}" not clickable`);
          }
        }

        await page.getByRole('button', { name: 'Create Variable' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create Variable' });
        await dialog.getByRole('button', { name: 'Create Variable' }).click();
        await expect(dialog.getByRole('alert')).toBeVisible();
        await settle(page);
        problems.push(...(await seriousAxeViolations(page, `${label}-dialog`)));
        await page.screenshot({ path: testInfo.outputPath(`${label}-dialog.png`) });
        const box = await dialog.boundingBox();
        if (!box || box.x < 0 || box.x + box.width > viewport.width) {
          problems.push(`${label}-dialog: the dialog does not fit the screen`);
        }
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();

        // The user dialog with its Variables section.
        await page.getByRole('tab', { name: /^Users/ }).click();
        await page.getByTestId('user-row-pilot').getByRole('button', { name: 'Edit user' }).click();
        const userDialog = page.getByRole('dialog', { name: 'Edit User' });
        await expect(userDialog.getByTestId('user-variable-theme')).toContainText('Read-only');
        await userDialog.getByTestId('user-variable-theme').scrollIntoViewIfNeeded();
        await settle(page);
        problems.push(...(await seriousAxeViolations(page, `${label}-user-dialog`)));
        await page.screenshot({ path: testInfo.outputPath(`${label}-user-dialog.png`) });
        const userBox = await userDialog.boundingBox();
        if (!userBox || userBox.x < 0 || userBox.x + userBox.width > viewport.width) {
          problems.push(`${label}-user-dialog: the dialog does not fit the screen`);
        }
        await page.keyboard.press('Escape');
        await expect(userDialog).toBeHidden();
        await page.getByRole('tab', { name: 'Variables' }).click();
      }
    }
    expect(problems).toEqual([]);
  });
});
