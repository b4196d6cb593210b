import { hashSync } from '@node-rs/bcrypt';
import type { AppUser, Plan } from '@latchkey/contracts';
import { clientPost } from './support/client-api.ts';
import { chooseOption } from './support/controls.ts';
import { checkLayout, storeTheme, THEMED_VIEWPORTS } from './support/layout-checks.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator } from './support/test.ts';
import { toast } from './support/toast.ts';

const DIALOG_NAME = 'Import from KeyAuth';

/** KeyAuth writes PHP's bcrypt ($2y$); cost 4 keeps the test fast. */
function keyAuthHash(password: string): string {
  return hashSync(password, 4).replace(/^\$2b\$/, '$2y$');
}

/**
 * The panel's KeyAuthUsers.json (apps/server/src/modules/imports/keyauth-export.ts): alice and
 * bob to create, pilot already a user of the application (row 3, a conflict), and a row
 * without a username (row 4, unreadable). Subscriptions are joined by username.
 */
function keyAuthUsersFile(): string {
  const expiry = String(Math.floor(Date.UTC(2031, 0, 1) / 1000));
  return JSON.stringify({
    users: [
      {
        username: 'alice',
        email: null,
        password: keyAuthHash('alice-pass-123'),
        hwid: null,
        banned: null,
        ip: '203.0.113.7',
      },
      {
        username: 'bob',
        email: null,
        password: keyAuthHash('bob-pass-123'),
        hwid: null,
        banned: null,
        ip: null,
      },
      {
        username: 'pilot',
        email: null,
        password: keyAuthHash('pilot-pass-123'),
        hwid: null,
        banned: null,
        ip: null,
      },
      { email: null, password: null, hwid: null, banned: null, ip: null },
    ],
    subscription: [
      { user: 'alice', subscription: 'default', expiry },
      { user: 'bob', subscription: 'default', expiry },
      { user: 'pilot', subscription: 'default', expiry },
    ],
  });
}

/** A figure of the dialog's counts, by its label. */
function figure(counts: Locator, label: string): Locator {
  return counts.getByText(label, { exact: true }).locator('xpath=following-sibling::dd[1]');
}

test.describe('KeyAuth import', () => {
  for (const viewport of THEMED_VIEWPORTS) {
    test(`at ${viewport.width} px (${viewport.theme}): previews a users export, maps its level, imports it`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(120_000);
      const label = (state: string) => `import-${state}-${viewport.name}-${viewport.theme}`;
      const problems: string[] = [];
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });

      await signInAsNewOwner(page, 'Ines Import');
      await storeTheme(page, viewport.theme);
      const application = await createApplication(page, 'Migrated Client');
      const base = `/api/applications/${application.id}`;
      await ownerPost<Plan>(page, `${base}/plans`, { name: 'Pro Monthly', durationDays: 30 });
      await ownerPost<AppUser>(page, `${base}/users`, {
        username: 'pilot',
        password: 'pw-pilot-123',
      });

      await page.goto(`/app/${application.id}`);
      await page.getByRole('button', { name: 'Import' }).click();
      const dialog = page.getByRole('dialog', { name: DIALOG_NAME });
      await expect(dialog).toContainText("KeyAuth's export of the kind chosen above");
      await expect(dialog.getByRole('radio', { name: /^Users/ })).toBeChecked();
      await dialog.getByLabel(/^Export file/).setInputFiles({
        name: 'KeyAuthUsers.json',
        mimeType: 'application/json',
        buffer: Buffer.from(keyAuthUsersFile()),
      });
      const uploaded = page.waitForResponse(
        (response) =>
          response.url().includes(`${base}/imports?`) && response.request().method() === 'POST',
      );
      await dialog.getByRole('button', { name: 'Upload and preview' }).click();
      expect((await uploaded).status()).toBe(201);

      // The preview: counts, and the skipped rows by their row numbers.
      await expect(dialog.getByRole('button', { name: 'Start import' })).toBeVisible();
      const holds = dialog.getByLabel('What the file holds');
      await expect(figure(holds, 'Rows in the file')).toHaveText('4');
      await expect(figure(holds, 'Readable')).toHaveText('3');
      await expect(figure(holds, 'Will be created')).toHaveText('2');
      await expect(figure(holds, 'Conflicts, skipped')).toHaveText('1');
      await expect(figure(holds, 'Unreadable')).toHaveText('1');
      const conflicts = dialog.getByRole('region', { name: /^Conflicts/ });
      await expect(conflicts.getByRole('listitem')).toHaveCount(1);
      await expect(conflicts.getByRole('listitem')).toContainText('Row 3');
      await expect(conflicts.getByRole('listitem')).toContainText('pilot');
      const unreadable = dialog.getByRole('region', { name: /^Unreadable rows/ });
      await expect(unreadable.getByRole('listitem')).toHaveCount(1);
      await expect(unreadable.getByRole('listitem')).toContainText('Row 4');
      const level = dialog.getByRole('combobox', { name: 'Level “default”' });
      await expect(level).toHaveText('No subscription');
      await checkLayout(page, label('preview'), problems, { testInfo });

      await chooseOption(page, level, 'Pro Monthly (30 days)');
      await dialog.getByRole('button', { name: 'Start import' }).click();
      const bar = dialog.getByRole('progressbar', { name: 'Import progress' });
      await expect(bar).toHaveAttribute('aria-valuemax', '3');
      await expect(bar).toHaveAttribute('aria-valuenow', '3');
      await expect(dialog.getByText('3 of 3 rows')).toBeVisible();
      await expect(dialog.getByText('Import finished', { exact: true })).toBeVisible();
      await expect(toast(page, 'Import finished: 2 users created, 1 skipped')).toBeVisible();
      const did = dialog.getByLabel('What the import did');
      await expect(figure(did, 'Created')).toHaveText('2');
      await expect(figure(did, 'Skipped')).toHaveText('1');
      await checkLayout(page, label('done'), problems, { testInfo });
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect(dialog).toBeHidden();

      // The imported users are listed, with the plan their KeyAuth level was mapped to.
      await page.getByRole('tab', { name: /^Users/ }).click();
      await expect(page.getByRole('tab', { name: /^Users/ })).toHaveText('Users (3)');
      for (const username of ['alice', 'bob']) {
        await expect(page.getByTestId(`user-row-${username}`)).toContainText('Pro Monthly');
      }
      await expect(page.getByTestId('user-row-pilot')).not.toContainText('Pro Monthly');

      // KeyAuth's bcrypt hash still lets the user in.
      const login = await clientPost(page, application, 'login', {
        username: 'bob',
        password: 'bob-pass-123',
        version: application.version,
      });
      expect((await login.json()) as { success: boolean }).toMatchObject({ success: true });

      expect(problems).toEqual([]);
    });
  }

  test('imports a plain list of licence keys once their level has a plan', async ({ page }) => {
    await signInAsNewOwner(page, 'Kai Keys');
    const application = await createApplication(page, 'Key Shop');
    const base = `/api/applications/${application.id}`;
    await ownerPost<Plan>(page, `${base}/plans`, { name: 'Forever' });
    const keys = ['AVZKQ7-TXPIPH-3L6GZS', 'CDOH16-UW234U-LKPCO0', 'F7U7PX-QTXFC2-F419BX'];

    await page.goto(`/app/${application.id}`);
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: DIALOG_NAME });
    await dialog.getByRole('radio', { name: /^Licence keys/ }).check();
    await dialog.getByLabel(/^Export file/).setInputFiles({
      name: 'keys.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(`${keys.join('\n')}\n`),
    });
    await dialog.getByRole('button', { name: 'Upload and preview' }).click();
    await expect(dialog).toContainText('read as a list of keys, one a line');
    await expect(figure(dialog.getByLabel('What the file holds'), 'Will be created')).toHaveText(
      '3',
    );

    // A key needs a plan: refused here before the server would.
    await dialog.getByRole('button', { name: 'Start import' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Choose a plan for every level of the keys: Keys without a level',
    );
    await chooseOption(
      page,
      dialog.getByRole('combobox', { name: /^Keys without a level/ }),
      'Forever (Lifetime)',
    );
    await dialog.getByRole('button', { name: 'Start import' }).click();
    await expect(toast(page, 'Import finished: 3 licence keys created, 0 skipped')).toBeVisible();
    await dialog.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('tab', { name: 'Licences' }).click();
    await expect(page.locator('tr[data-testid^="license-row-"]')).toHaveCount(3);

    // Variables: the seller API's fetchallvars answer, saved as a file.
    await page.getByRole('button', { name: 'Import' }).click();
    await dialog.getByRole('radio', { name: /^Variables/ }).check();
    await dialog.getByLabel(/^Export file/).setInputFiles({
      name: 'fetchallvars.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        '{"success":true,"message":"Successfully retrieved variables","vars":[{"varid":"motd","msg":"Hello"},{"varid":"kill_switch","msg":"off"}]}',
      ),
    });
    await dialog.getByRole('button', { name: 'Upload and preview' }).click();
    await expect(dialog).toContainText(
      "read as the seller API's answer: 2 variables will be created",
    );
    await dialog.getByRole('button', { name: 'Start import' }).click();
    await expect(toast(page, 'Import finished: 2 variables created, 0 skipped')).toBeVisible();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('tab', { name: 'Variables' }).click();
    await expect(page.getByTestId('variable-row-kill_switch')).toBeVisible();
  });
});
