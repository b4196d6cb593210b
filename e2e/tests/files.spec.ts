import {
  APP_FILE_RELEASE_REQUIRES_SESSION,
  type AppFile,
  type Application,
} from '@latchkey/contracts';
import { rowWithCellText } from './support/controls.ts';
import {
  checkLayout,
  checkRowActions,
  forEachTheme,
  forEachViewport,
  PHONE,
  seriousAxeViolations,
  settle,
} from './support/layout-checks.ts';
import { createApplication, ownerGet, ownerPut } from './support/owner-api.ts';
import { consoleOriginHeaders, signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

const MIB = 1024 * 1024;

/** Uploads through the owner API as the console does: the bytes as the body. */
async function uploadFile(
  page: Page,
  applicationId: number,
  query: Record<string, string>,
  bytes: Buffer,
): Promise<AppFile> {
  const response = await page.request.post(
    `/api/applications/${applicationId}/files?${new URLSearchParams(query)}`,
    {
      headers: { ...consoleOriginHeaders(page), 'content-type': 'application/octet-stream' },
      data: bytes,
    },
  );
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as AppFile;
}

test.describe('files tab of the application page', () => {
  test('uploads with a progress bar, lists, sets and clears the current release, deletes', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInAsNewOwner(page, 'Fiona Files');
    const application = await createApplication(page, 'File Desk');
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: 'Files' }).click();
    await expect(page.getByRole('heading', { name: 'No files yet' })).toBeVisible();

    await page.getByRole('button', { name: 'Upload File' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload File' });
    // Checked before anything is sent.
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please choose a file');
    await dialog.getByLabel('File', { exact: true }).setInputFiles({
      name: 'Setup-2.0.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(6 * MIB, 0x5a),
    });
    // The file's own name fills the name field.
    await expect(dialog.getByLabel('Name')).toHaveValue('Setup-2.0.exe');
    await dialog.getByLabel('Version').fill('2.0.0');
    await dialog.getByLabel('Platform (optional)').fill('windows-x64');
    // It becomes the current release below, which only a session-free file may be.
    await dialog.getByRole('switch', { name: 'Requires a session' }).click();
    await expect(dialog.getByRole('switch', { name: 'Requires a session' })).not.toBeChecked();

    // A slow uplink, so the progress between none and all can be seen.
    const network = await page.context().newCDPSession(page);
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 2 * MIB,
    });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    const progress = dialog.getByRole('progressbar', { name: 'Upload progress' });
    await expect
      .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(Number(await progress.getAttribute('aria-valuenow'))).toBeLessThan(100);
    await expect(toast(page, 'File uploaded successfully')).toBeVisible({ timeout: 30_000 });
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(dialog).toBeHidden();

    const row = rowWithCellText(page, 'Setup-2.0.exe');
    await expect(row).toContainText('2.0.0');
    await expect(row).toContainText('windows-x64');
    await expect(row).toContainText('6 MB');
    await expect(row.getByRole('button', { name: 'Copy SHA-256 of Setup-2.0.exe' })).toBeVisible();
    await expect(row.getByText('Current release')).toHaveCount(0);

    await row.getByRole('button', { name: 'Set as current release' }).click();
    await expect(toast(page, 'Current release updated successfully')).toBeVisible();
    await expect(row.getByText('Current release', { exact: true })).toBeVisible();
    const saved = (await (await page.request.get('/api/applications')).json()) as Application[];
    const [file] = (await (
      await page.request.get(`/api/applications/${application.id}/files`)
    ).json()) as AppFile[];
    expect(saved.find((app) => app.id === application.id)?.currentReleaseFileId).toBe(file!.id);
    await row.getByRole('button', { name: 'Clear current release' }).click();
    await expect(row.getByText('Current release', { exact: true })).toBeHidden();
    await row.getByRole('button', { name: 'Set as current release' }).click();
    await expect(row.getByText('Current release', { exact: true })).toBeVisible();

    // Delete asks first; Cancel keeps it.
    await row.getByRole('button', { name: 'Delete file' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete file?' });
    await expect(confirm).toContainText('It is the current release');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: 'Delete file' }).click();
    await confirm.getByRole('button', { name: 'Delete File' }).click();
    await expect(toast(page, 'File deleted successfully')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No files yet' })).toBeVisible();
    const after = (await (await page.request.get('/api/applications')).json()) as Application[];
    expect(after.find((app) => app.id === application.id)?.currentReleaseFileId).toBeNull();
  });

  test('a file that needs a session cannot become the current release, here or by the API', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Rhea Release');
    const application = await createApplication(page, 'Gated Desk');
    const gated = await uploadFile(
      page,
      application.id,
      { name: 'members-only.zip', version: '3.0.0', requiresSession: 'true' },
      Buffer.from('members only'),
    );
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: 'Files' }).click();
    const row = page.getByTestId(`file-row-${gated.id}`);
    await expect(row.getByText('Requires a session', { exact: true })).toBeVisible();

    // The button says why on hover, and pressing it says it again instead of doing nothing.
    const refused = row.getByRole('button', {
      name: 'Requires a session, so it cannot be the current release',
    });
    await expect(refused).toHaveAttribute('aria-disabled', 'true');
    await refused.hover();
    await expect(page.getByRole('tooltip')).toHaveText(
      'Requires a session, so it cannot be the current release',
    );
    // Playwright will not click what is aria-disabled; a keyboard user can still press it.
    await refused.focus();
    await page.keyboard.press('Enter');
    await expect(toast(page, APP_FILE_RELEASE_REQUIRES_SESSION)).toBeVisible();
    await expect(row.getByText('Current release', { exact: true })).toHaveCount(0);

    // The server holds the same rule for any caller.
    const response = await page.request.put(`/api/applications/${application.id}`, {
      headers: consoleOriginHeaders(page),
      data: { currentReleaseFileId: gated.id },
    });
    expect(response.status()).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(
      APP_FILE_RELEASE_REQUIRES_SESSION,
    );
    const saved = await ownerGet<Application[]>(page, '/api/applications');
    expect(saved.find((app) => app.id === application.id)?.currentReleaseFileId).toBeNull();
  });

  test('at 390 and 1280 px in both themes: no sideways page, reachable row actions, axe clean', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signInAsNewOwner(page, 'Lars Layout');
    const application = await createApplication(page, 'Layout Files');
    const release = await uploadFile(
      page,
      application.id,
      {
        name: 'Latchkey-Desktop-Installer-With-A-Rather-Long-Name-2.4.1-x64.msi',
        version: '2.4.1',
        platform: 'windows-x64',
        requiresSession: 'false',
      },
      Buffer.alloc(3 * MIB + 12_345, 1),
    );
    await uploadFile(
      page,
      application.id,
      { name: 'portable.zip', version: '2.4.0', requiresSession: 'false' },
      Buffer.from('portable'),
    );
    await ownerPut(page, `/api/applications/${application.id}`, {
      currentReleaseFileId: release.id,
    });

    const problems: string[] = [];
    await forEachTheme(page, async (theme) => {
      await page.goto(`/app/${application.id}`);
      await page.getByRole('tab', { name: 'Files' }).click();
      await expect(page.getByText('Current release', { exact: true })).toBeVisible();
      await forEachViewport(page, async (viewport) => {
        const label = `files-${viewport.name}-${theme}`;
        await checkLayout(page, label, problems, { testInfo, fullPage: true });
        await checkRowActions(page.locator('table tbody td:last-child button'), label, problems, 4);
      });
      // The upload dialog too, at the phone's width.
      await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
      await page.getByRole('button', { name: 'Upload File' }).click();
      const dialog = page.getByRole('dialog', { name: 'Upload File' });
      await expect(dialog).toBeVisible();
      await settle(page);
      problems.push(...(await seriousAxeViolations(page, `files-upload-dialog-${theme}`)));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    });
    expect(problems).toEqual([]);
  });
});
