import type { CodeFile, Sample } from '@latchkey/contracts';
import { codeBoxText } from './support/code-mirror.ts';
import { createApplication, currentUser, ownerGet, updateAccount } from './support/owner-api.ts';
import { VIEWPORTS } from './support/layout-checks.ts';
import { consoleOriginHeaders, inBrowserOfItsOwn, signInAsNewOwner } from './support/owners.ts';
import { signInAsSiteOwner } from './support/site-owner.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

/** A code box by its accessible name: CodeMirror's content element. */
function codeBox(page: Page, label: string): Locator {
  return page.locator(`.cm-content[aria-label="${label}"]`);
}

/** The box's whole document (CodeMirror draws only the lines in view). */
function codeText(page: Page, label: string): Promise<string> {
  return codeBoxText(codeBox(page, label));
}

const TEMPLATE = 'C# WinForms template';
const DOCUMENT = 'authentication.ts document';

test.describe('/code-editor', () => {
  test('a vendor with edit_code edits and saves a template, then a document, and restores it', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Cody Editor');
    const application = await createApplication(page, 'Editor Client');

    await page.goto('/code-editor');
    await expect(page.getByRole('heading', { name: 'Code Editor', level: 1 })).toBeVisible();
    // A vendor is not the site owner.
    await expect(page.getByText('Site Owner', { exact: true })).toHaveCount(0);
    await expect(page.getByText('Code Editing Enabled', { exact: true })).toBeVisible();

    // The bare template until an application is chosen, C# by default.
    await expect(page.getByRole('combobox', { name: 'Language' })).toHaveText('C# WinForms');
    await expect.poll(() => codeText(page, TEMPLATE)).toContain('"YOUR_API_KEY"');
    await page.getByRole('combobox', { name: 'Application' }).click();
    await page.getByRole('option', { name: 'Editor Client', exact: true }).click();
    const rendered = await ownerGet<Sample>(
      page,
      `/api/applications/${application.id}/samples/csharp`,
    );
    await expect.poll(() => codeText(page, TEMPLATE)).toBe(rendered.code);
    expect(rendered.code).toContain(application.apiKey);

    // Edit and save the template: it is the one /integration shows for this application.
    await page.getByRole('button', { name: 'Edit Template' }).click();
    await expect(codeBox(page, TEMPLATE)).toHaveAttribute('aria-readonly', 'false');
    await codeBox(page, TEMPLATE).click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('// edited on the code editor');
    await page.getByRole('button', { name: 'Save Template' }).click();
    await expect(toast(page, 'Code template updated successfully')).toBeVisible();
    await expect(codeBox(page, TEMPLATE)).toHaveAttribute('aria-readonly', 'true');

    await page.goto(`/integration?app=${application.id}`);
    await expect
      .poll(() => codeText(page, 'C# WinForms code'))
      .toContain('// edited on the code editor');

    // The reference documents: the account's own, with their history.
    await page.goto('/code-editor');
    const files = page.getByRole('navigation', { name: 'Files' });
    await expect(files.getByRole('button')).toHaveCount(3);
    await expect(files.getByRole('button', { name: /authentication\.ts/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    const seeded = await ownerGet<CodeFile>(page, '/api/code-files/authentication.ts');
    await expect.poll(() => codeText(page, DOCUMENT)).toBe(seeded.content);
    await expect(page.getByTestId('read-only-notice')).toHaveCount(0);
    await expect(page.getByText('No earlier versions yet')).toBeVisible();

    await codeBox(page, DOCUMENT).click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('// our login notes');
    await expect(files.getByText('Unsaved', { exact: true })).toBeVisible();
    // Ctrl+S saves from the keyboard.
    await page.keyboard.press('ControlOrMeta+s');
    await expect(toast(page, 'authentication.ts was updated successfully.')).toBeVisible();
    await expect(toast(page, 'File Saved')).toBeVisible();
    await expect(page.getByTestId('code-file-last-modified')).toContainText('version 2');
    const history = page.getByRole('list', { name: 'Versions of authentication.ts' });
    await expect(history.getByRole('listitem')).toHaveCount(2);
    const saved = await ownerGet<CodeFile>(page, '/api/code-files/authentication.ts');
    expect(saved.content).toBe(`${seeded.content}\n// our login notes`);

    // A reload shows what was saved.
    await page.reload();
    await expect.poll(() => codeText(page, DOCUMENT)).toBe(saved.content);

    // Restore asks first; Cancel changes nothing.
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = page.getByRole('alertdialog', {
      name: 'Restore version 1 of authentication.ts?',
    });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(history.getByRole('listitem')).toHaveCount(2);

    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await dialog.getByRole('button', { name: 'Restore Version' }).click();
    await expect(
      toast(page, 'authentication.ts is back to version 1, saved as version 3.'),
    ).toBeVisible();
    await expect.poll(() => codeText(page, DOCUMENT)).toBe(seeded.content);
    await expect(history.getByRole('listitem')).toHaveCount(3);
    await expect(history.getByText(/Restored from version 1/)).toBeVisible();
  });

  test('a user without edit_code reads the documents read-only, and a save is refused', async ({
    browser,
    page,
  }) => {
    await signInAsNewOwner(page, 'Rita Reader');
    const reader = await currentUser(page);

    // The site owner withdraws edit_code (in a browser of their own).
    await inBrowserOfItsOwn(browser, async (ownerPage) => {
      await signInAsSiteOwner(ownerPage);
      await updateAccount(ownerPage, reader.id, {
        role: 'user',
        permissions: ['manage_applications'],
        isActive: true,
      });
    });

    await page.goto('/code-editor');
    await expect(page.getByRole('heading', { name: 'Code Editor', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'code editing privileges' })).toHaveText(
      "You don't have permission to access the code editor. This feature is restricted to users with code editing privileges.",
    );
    // No link to a page they may not use, no template part.
    await expect(page.getByRole('link', { name: 'Code Editor' })).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: 'Language' })).toHaveCount(0);

    await expect(page.getByTestId('read-only-notice')).toHaveText(
      'You need code editing permissions to modify this file.',
    );
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    await expect(page.getByText('Code Editing Disabled', { exact: true })).toBeVisible();
    const seeded = await ownerGet<CodeFile>(page, '/api/code-files/authentication.ts');
    expect(seeded.canEdit).toBe(false);
    await expect(codeBox(page, DOCUMENT)).toHaveAttribute('aria-readonly', 'true');
    await codeBox(page, DOCUMENT).click();
    await page.keyboard.type('// not allowed');
    expect(await codeText(page, DOCUMENT)).toBe(seeded.content);

    // The server refuses the write itself, whatever the page shows.
    const refused = await page.request.put('/api/code-files/authentication.ts', {
      headers: consoleOriginHeaders(page),
      data: { content: '// not allowed' },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({
      message: 'You need the "Edit Code" permission to do this.',
      code: 'FORBIDDEN',
    });
  });

  test("each reference document's line numbers stay beside their lines, at 390 and 1280 px", async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Lina Lines');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto('/code-editor');
      for (const name of ['authentication.ts', 'permissions.ts', 'api-routes.ts']) {
        await page.getByRole('navigation', { name: 'Files' }).getByRole('button', { name }).click();
        const box = codeBox(page, `${name} document`);
        await expect(box).toBeVisible();
        // As a reader sees it: in view. An editor never yet on the screen is drawn with
        // CodeMirror's estimated line height (what a full-page screenshot shows) until it is.
        await box.scrollIntoViewIfNeeded();
        await page.evaluate(
          () =>
            new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        // Each drawn line beside the gutter's number for it: same top, same height.
        const misplaced = await box.evaluate((content) => {
          const editor = content.closest('.cm-editor')!;
          const lines = Array.from(content.querySelectorAll<HTMLElement>(':scope > .cm-line'));
          const numbers = Array.from(
            editor.querySelectorAll<HTMLElement>('.cm-lineNumbers .cm-gutterElement'),
          ).filter((element) => /^\d+$/.test(element.textContent ?? ''));
          const problems: string[] = [];
          for (const number of numbers) {
            const line = lines[Number(number.textContent) - 1];
            if (!line) continue;
            const [a, b] = [number.getBoundingClientRect(), line.getBoundingClientRect()];
            if (Math.abs(a.top - b.top) > 1 || Math.abs(a.height - b.height) > 1) {
              problems.push(
                `line ${number.textContent}: number at ${a.top}+${a.height}, line at ${b.top}+${b.height}`,
              );
            }
          }
          return { problems, checked: numbers.length };
        });
        expect(misplaced.checked, `${viewport.name} ${name}`).toBeGreaterThan(10);
        expect(misplaced.problems, `${viewport.name} ${name}`).toEqual([]);
      }
    }
  });
});
