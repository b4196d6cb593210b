import { isFocused, pressEscapeOn } from './support/controls.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test } from './support/test.ts';
import { toast } from './support/toast.ts';

test.describe('keyboard and focus', () => {
  test('the application settings dialog closes with Esc after a failed save and focus returns to its opener', async ({
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

    // The settings dialog opened from a row is controlled (no Radix trigger): the case that lost
    // focus.
    const row = page.getByRole('row').filter({ hasText: 'Focus Pocus' });
    const editButton = row.getByRole('button', { name: 'Edit application' });
    await editButton.focus();
    await page.keyboard.press('Enter');
    const editDialog = page.getByRole('dialog', { name: 'Application Settings' });
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
    await editDialog.getByRole('textbox', { name: 'Application Name' }).fill('Focus Pocus 2');
    await editDialog.getByRole('button', { name: 'Update Application' }).click();
    await expect(toast(page, 'The database is unavailable')).toBeVisible();
    await expect(editDialog).toBeVisible();

    await pressEscapeOn(page, editDialog);
    await expect(editDialog).toBeHidden();
    await expect.poll(() => isFocused(editButton)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Edit application',
    );
  });

  test('Esc closes a dialog opened while a toast shows, at once, and the toast stays', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Tove Toast');
    await page.goto('/dashboard');
    const newApplication = page.getByRole('button', { name: 'New Application' });
    const createDialog = page.getByRole('dialog', { name: 'New Application' });
    await newApplication.click();
    await createDialog.getByLabel('Name').fill('Toast Rack');
    await createDialog.getByRole('button', { name: 'Create Application' }).click();
    const created = toast(page, 'Application created successfully');
    await expect(created).toBeVisible();
    await expect(createDialog).toBeHidden();
    // The pointer rests on the toast, which holds it on screen (Radix pauses its timer) however
    // long the steps below take on a loaded machine.
    await created.hover();

    // The keys as fast as Playwright presses them: Enter opens, Escape follows as it shows.
    await newApplication.focus();
    await page.keyboard.press('Enter');
    await expect(createDialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(createDialog).toBeHidden();
    await expect(created).toBeVisible();
    await expect.poll(() => isFocused(newApplication)).toBe(true);

    // Faster than anyone types, so the race is met every time: Escape as soon as React shows
    // the dialog, while the toast is still Radix's top-most layer (the dialog marks itself
    // `pointer-events: auto` once it has taken that place).
    const atEscape = await newApplication.evaluate(async (button: HTMLElement) => {
      button.click();
      await Promise.resolve();
      const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
      const pointerEvents = dialog?.style.pointerEvents ?? null;
      (document.activeElement ?? document.body).dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }),
      );
      return { isDialogShown: dialog !== null, pointerEvents };
    });
    expect(atEscape).toEqual({ isDialogShown: true, pointerEvents: '' });
    await expect(createDialog).toBeHidden();
    await expect(created).toBeVisible();
    await expect.poll(() => isFocused(newApplication)).toBe(true);
  });
});
