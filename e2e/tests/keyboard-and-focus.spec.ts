import { isFocused, pressEscapeOn } from './support/controls.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test } from './support/test.ts';
import { toast } from './support/toast.ts';

test.describe('keyboard and focus', () => {
  test('the Edit Application dialog closes with Esc after a failed save and focus returns to its opener', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Kim Keyboard');
    await page.goto('/dashboard');

    // Opened by keyboard from its trigger; closed by Esc; focus back on the trigger.
    const newApplication = page.getByRole('button', { name: 'New Application' });
    await newApplication.focus();
    await page.keyboard.press('Enter');
    const createDialog = page.getByRole('dialog', { name: 'New Application' });
    await createDialog.getByLabel('Name').fill('Focus Pocus');
    await createDialog.getByRole('button', { name: 'Create Application' }).click();
    await expect(toast(page, 'Application created successfully')).toBeVisible();
    await expect(createDialog).toBeHidden();
    // While a toast shows, Escape can close the toast instead of a dialog opened after it
    // (Radix's layers: the toast keeps its Escape listener until it re-renders). The keys
    // under test start once it is gone.
    await expect(toast(page, 'Application created successfully')).toBeHidden();

    // The Edit dialog is controlled from the row (no Radix trigger): the case that lost focus.
    const row = page.getByRole('row').filter({ hasText: 'Focus Pocus' });
    const editButton = row.getByRole('button', { name: 'Edit application' });
    await editButton.focus();
    await page.keyboard.press('Enter');
    const editDialog = page.getByRole('dialog', { name: 'Edit Application' });
    await expect(editDialog).toBeVisible();
    await pressEscapeOn(page, editDialog);
    await expect(editDialog).toBeHidden();
    await expect.poll(() => isFocused(editButton)).toBe(true);

    // A failed save: the error toast shows, the dialog stays, and Esc still closes it.
    await page.route('**/api/applications/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'The database is unavailable', code: 'INTERNAL' }),
          })
        : route.fallback(),
    );
    await editButton.click();
    await expect(editDialog).toBeVisible();
    await editDialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Focus Pocus 2');
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'The database is unavailable')).toBeVisible();
    await expect(editDialog).toBeVisible();

    await pressEscapeOn(page, editDialog);
    await expect(editDialog).toBeHidden();
    await expect.poll(() => isFocused(editButton)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Edit application',
    );
  });
});
