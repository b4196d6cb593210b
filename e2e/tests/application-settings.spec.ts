import { type Application } from '@latchkey/contracts';
import { clientCall } from './support/client-api.ts';
import { checkDialog, forEachTheme, forEachViewport } from './support/layout-checks.ts';
import { createApplication, ownerGet } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test } from './support/test.ts';
import { toast } from './support/toast.ts';

test.describe('the application settings dialog', () => {
  test('at 390 and 1280 px in both themes: every setting in one place, each problem at its field at once, the first focused; axe clean', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signInAsNewOwner(page, 'Saul Settings');
    const application = await createApplication(page, 'Settings Desk');
    const problems: string[] = [];

    await forEachTheme(page, async (theme) => {
      await forEachViewport(page, async (viewport) => {
        const label = `application-settings-${viewport.name}-${theme}`;
        await page.goto(`/app/${application.id}`);
        await page.getByRole('button', { name: 'Settings' }).click();
        const dialog = page.getByRole('dialog', { name: 'Application Settings' });
        await expect(dialog).toBeVisible();
        // One surface: the basics, the groups and the messages, under headings, not tabs.
        await expect(dialog.getByRole('tab')).toHaveCount(0);
        for (const group of [
          'Devices',
          'Offline licences',
          'End-user portal',
          'Trial',
          'Custom Messages',
        ]) {
          await expect(dialog.getByRole('group', { name: group })).toBeVisible();
        }

        const version = dialog.getByRole('textbox', { name: 'Version', exact: true });
        const sessions = dialog.getByRole('textbox', { name: 'Sessions per User' });
        const expired = dialog.getByRole('textbox', { name: 'Account expired message' });
        const trialDays = dialog.getByRole('textbox', { name: 'Trial days' });
        const trialEntitlements = dialog.getByRole('textbox', { name: 'Trial entitlements' });
        await version.fill('');
        await trialDays.fill('0');
        await sessions.fill('-2');
        await expired.fill('   ');
        await dialog.getByRole('button', { name: 'Update Application' }).click();

        for (const [control, words] of [
          [version, 'Please enter a version'],
          [sessions, 'Session limit must be at least 1 (leave it empty for no limit)'],
          [trialDays, 'Trial days must be between 1 and 365 (leave it empty for no trial)'],
          [expired, 'Messages cannot be empty'],
        ] as const) {
          await expect(control).toHaveAttribute('aria-invalid', 'true');
          const problemId = `${await control.getAttribute('id')}-problem`;
          await expect(dialog.locator(`[id="${problemId}"]`)).toHaveText(words);
        }
        await expect(version).toBeFocused();
        await checkDialog(page, dialog, `${label}-problems`, problems, {
          testInfo,
          width: viewport.width,
        });
        await trialDays.scrollIntoViewIfNeeded();
        await checkDialog(page, dialog, `${label}-trial`, problems, {
          testInfo,
          width: viewport.width,
        });
        // The last of them is scrolled into view with the dialog's own scroll.
        await expired.scrollIntoViewIfNeeded();
        await checkDialog(page, dialog, `${label}-messages`, problems, {
          testInfo,
          width: viewport.width,
        });

        // Mended, the settings save, and the server has them.
        const newVersion = `2.0.${viewport.width}`;
        await version.fill(newVersion);
        await sessions.fill('3');
        await trialDays.fill('14');
        await trialEntitlements.fill('PRO, EXPORT_PDF');
        await expired.fill(`Expired (${theme}).\nRenew at example.com.`);
        await dialog.getByRole('button', { name: 'Update Application' }).click();
        await expect(toast(page, 'Application updated successfully')).toBeVisible();
        await expect(dialog).toBeHidden();
        const saved = (await ownerGet<Application[]>(page, '/api/applications')).find(
          ({ id }) => id === application.id,
        );
        expect(saved).toMatchObject({
          version: newVersion,
          maxSessionsPerUser: 3,
          trialDays: 14,
          trialEntitlements: ['EXPORT_PDF', 'PRO'],
          accountExpiredMessage: `Expired (${theme}).\nRenew at example.com.`,
        });
      });
    });
    expect(problems).toEqual([]);

    // A program on this machine starts the trial the settings offer: its account is in the
    // users table, holding the Trial.
    const saved = (await ownerGet<Application[]>(page, '/api/applications')).find(
      ({ id }) => id === application.id,
    );
    const started = await clientCall(page, application, 'trial', {
      hwid: 'E2E-TRIAL-MACHINE',
      username: 'trial-visitor',
      version: saved?.version,
    });
    expect(started).toMatchObject({ code: 'OK', entitlements: ['EXPORT_PDF', 'PRO'] });
    await page.goto(`/app/${application.id}`);
    await page.getByRole('tab', { name: /^Users/ }).click();
    await expect(page.getByTestId('user-row-trial-visitor')).toBeVisible();
  });
});
