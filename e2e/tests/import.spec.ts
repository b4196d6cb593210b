import { hashSync } from '@node-rs/bcrypt';
import type { AppUser, Application, Plan } from '@latchkey/contracts';
import { seriousAxeViolations, settle } from './support/layout-checks.ts';
import { consoleOriginHeaders, signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';

/** The console's own storage key (apps/console/src/lib/theme.ts). */
const THEME_STORAGE_KEY = 'latchkey-auth-theme';
const DIALOG_NAME = 'Import from KeyAuth';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800, theme: 'light' },
  { name: 'phone', width: 390, height: 844, theme: 'dark' },
] as const;

/** A toast by its text (by markup: an open modal makes everything else aria-hidden). */
function toast(page: Page, text: string): Locator {
  return page.locator('li[data-state="open"]').getByText(text, { exact: true });
}

async function ownerPost<T>(page: Page, path: string, data: unknown): Promise<T> {
  const response = await page.request.post(path, { headers: consoleOriginHeaders(page), data });
  expect(response.status(), `POST ${path}`).toBe(201);
  return (await response.json()) as T;
}

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

/** The page's state as a whole: nothing scrolls sideways, and axe finds nothing serious. */
async function checkLayout(page: Page, label: string, problems: string[]): Promise<void> {
  await settle(page);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  if (overflow > 0) problems.push(`${label}: the page scrolls sideways by ${overflow} px`);
  problems.push(...(await seriousAxeViolations(page, label)));
}

async function chooseOption(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A figure of the dialog's counts, by its label. */
function figure(counts: Locator, label: string): Locator {
  return counts.getByText(label, { exact: true }).locator('xpath=following-sibling::dd[1]');
}

test.describe('KeyAuth import', () => {
  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.width} px (${viewport.theme}): previews a users export, maps its level, imports it`, async ({
      page,
    }, testInfo) => {
      test.setTimeout(120_000);
      const label = (state: string) => `import-${state}-${viewport.name}-${viewport.theme}`;
      const problems: string[] = [];
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });

      await signInAsNewOwner(page, 'Ines Import');
      await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [
        THEME_STORAGE_KEY,
        viewport.theme,
      ] as const);
      const application = await ownerPost<Application>(page, '/api/applications', {
        name: 'Migrated Client',
      });
      const base = `/api/applications/${application.id}`;
      await ownerPost<Plan>(page, `${base}/plans`, { name: 'Pro Monthly', durationDays: 30 });
      await ownerPost<AppUser>(page, `${base}/users`, {
        username: 'pilot',
        password: 'pw-pilot-123',
      });

      await page.goto(`/app/${application.id}`);
      await page.getByRole('button', { name: 'Import' }).click();
      const dialog = page.getByRole('dialog', { name: DIALOG_NAME });
      await expect(dialog).toContainText("KeyAuth's users or keys export");
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
      await checkLayout(page, label('preview'), problems);
      await page.screenshot({ path: testInfo.outputPath(`${label('preview')}.png`) });

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
      await checkLayout(page, label('done'), problems);
      await page.screenshot({ path: testInfo.outputPath(`${label('done')}.png`) });
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
      const login = await page.request.post('/api/v1/login', {
        headers: { 'X-API-Key': application.apiKey },
        data: { username: 'bob', password: 'bob-pass-123', version: application.version },
      });
      expect((await login.json()) as { success: boolean }).toMatchObject({ success: true });

      expect(problems).toEqual([]);
    });
  }

  test('imports a plain list of licence keys once their level has a plan', async ({ page }) => {
    await signInAsNewOwner(page, 'Kai Keys');
    const application = await ownerPost<Application>(page, '/api/applications', {
      name: 'Key Shop',
    });
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
  });
});
