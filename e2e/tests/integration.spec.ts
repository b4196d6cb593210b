import type { Sample } from '@latchkey/contracts';
import { codeBoxText } from './support/code-mirror.ts';
import { createApplication, ownerGet } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

function fetchSample(page: Page, applicationId: number, language: string): Promise<Sample> {
  return ownerGet<Sample>(page, `/api/applications/${applicationId}/samples/${language}`);
}

/** The visible tab's code box: CodeMirror's editable content element. */
function codeBox(page: Page): Locator {
  return page.getByRole('tabpanel').locator('.cm-content');
}

/** The visible code box's whole document (CodeMirror draws only the lines in view). */
function codeText(page: Page): Promise<string> {
  return codeBoxText(codeBox(page));
}

test.describe('/integration', () => {
  test('selects an application, switches tabs, copies, downloads, edits, saves and resets', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInAsNewOwner(page, 'Ingrid Integration');

    // No application yet: the empty state leads to where one is created.
    await page.goto('/integration');
    await expect(
      page.getByRole('heading', { name: 'Integration Examples', level: 1 }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No Applications' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create an application' })).toHaveAttribute(
      'href',
      '/dashboard',
    );

    const alpha = await createApplication(page, 'Alpha Client');
    await createApplication(page, 'Beta Client');
    await page.reload();
    await expect(page.getByText('Select an application to see its API key')).toBeVisible();

    const selector = page.getByRole('combobox', { name: 'Application' });
    await selector.click();
    // Names as the options, ids as their values (the address shows the id chosen).
    await expect(page.getByRole('option')).toHaveCount(2);
    await expect(page.getByRole('option', { name: 'Beta Client', exact: true })).toBeVisible();
    await page.getByRole('option', { name: 'Alpha Client', exact: true }).click();
    await expect(page).toHaveURL(`/integration?app=${alpha.id}`);
    await expect(page.getByLabel('API Key', { exact: true })).toHaveValue(alpha.apiKey);
    await expect(page.getByRole('textbox', { name: 'Base URL' })).toHaveValue(
      new URL(baseURL!).origin,
    );
    await expect(page.getByTestId('sample-version')).toHaveText('1.0.0');

    // Four tabs labelled from the catalogue; C# first. Each shows what the server rendered.
    await expect(page.getByRole('tab')).toHaveText([
      'C# WinForms',
      'Python Tkinter',
      'Node.js console',
      'C++ console',
    ]);
    await expect(page.getByRole('tab', { name: 'C# WinForms' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const csharp = await fetchSample(page, alpha.id, 'csharp');
    await expect.poll(() => codeText(page)).toBe(csharp.code);
    expect(csharp.code).toContain(alpha.apiKey);
    await expect(codeBox(page)).toHaveAttribute('aria-readonly', 'true');

    await page.getByRole('tab', { name: 'Python Tkinter' }).click();
    await expect(page).toHaveURL(`/integration?app=${alpha.id}&language=python`);
    const python = await fetchSample(page, alpha.id, 'python');
    await expect.poll(() => codeText(page)).toBe(python.code);
    const panel = page.getByRole('tabpanel');
    await expect(panel.getByText('latchkey_client.py', { exact: true })).toBeVisible();
    await expect(panel.getByText('Signed responses', { exact: true })).toBeVisible();
    await expect(panel.getByText('Customized', { exact: true })).toHaveCount(0);

    // Copy Code puts the whole sample on the clipboard.
    await panel.getByRole('button', { name: 'Copy Code' }).click();
    await expect(toast(page, 'Code copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(python.code);

    // Download saves it under the catalogue's file name.
    const downloadEvent = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download latchkey_client.py' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toBe('latchkey_client.py');
    const downloadedPath = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(downloadedPath, 'utf8')).toBe(python.code);

    // Edit, then Cancel without changes leaves read-only mode at once.
    await panel.getByRole('button', { name: 'Edit Code' }).click();
    await expect(codeBox(page)).toHaveAttribute('aria-readonly', 'false');
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect(codeBox(page)).toHaveAttribute('aria-readonly', 'true');

    // Edit and save: the box is editable, Tab stays inside, Esc then Tab leaves.
    await panel.getByRole('button', { name: 'Edit Code' }).click();
    await codeBox(page).click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('# edited by e2e');
    await page.keyboard.press('Tab');
    await expect(codeBox(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await expect(codeBox(page)).not.toBeFocused();
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Code template updated successfully')).toBeVisible();
    await expect(codeBox(page)).toHaveAttribute('aria-readonly', 'true');
    await expect(panel.getByText('Customized', { exact: true })).toBeVisible();

    // A reload shows the saved code, on the same tab (the address keeps both choices).
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Python Tkinter' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect.poll(() => codeText(page)).toContain('# edited by e2e');
    const saved = await fetchSample(page, alpha.id, 'python');
    expect(saved).toMatchObject({ isCustomized: true });
    expect(saved.code).toContain('# edited by e2e');

    // Reset to default asks first, then shows the rendered default with the API key again.
    await page.getByRole('tabpanel').getByRole('button', { name: 'Reset to default' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset to the default sample?' });
    await dialog.getByRole('button', { name: 'Reset to Default' }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => codeText(page)).toBe(python.code);
    expect(python.code).toContain(alpha.apiKey);
    await expect(page.getByRole('tabpanel').getByText('Customized', { exact: true })).toHaveCount(
      0,
    );
    expect(await fetchSample(page, alpha.id, 'python')).toMatchObject({ isCustomized: false });

    // The choice is remembered: the page without a query opens on the same application.
    await page.goto('/integration');
    await expect(page.getByRole('combobox', { name: 'Application' })).toHaveText('Alpha Client');
    await expect(page.getByLabel('API Key', { exact: true })).toHaveValue(alpha.apiKey);
  });

  test("the application page's API Configuration tab links to the samples", async ({ page }) => {
    await signInAsNewOwner(page, 'Linus Link');
    const application = await createApplication(page, 'Linked Client');
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: 'API Configuration' }).click();
    await page.getByRole('link', { name: 'Integration samples' }).click();
    await expect(page).toHaveURL(`/integration?app=${application.id}`);
    await expect(page.getByRole('combobox', { name: 'Application' })).toHaveText('Linked Client');
  });
});
