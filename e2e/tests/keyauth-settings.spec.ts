import { KEYAUTH_NAME_TAKEN, type Application } from '@latchkey/contracts';
import { openNewApplicationTab } from './support/application-page.ts';
import { checkLayout, forEachTheme, forEachViewport } from './support/layout-checks.ts';
import { createApplication, ownerGet, ownerPut } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { toast } from './support/toast.ts';
import { expect, test, type Page } from './support/test.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const TAB = 'API Configuration';

/** The application as the owner API answers it now. */
async function savedApplication(page: Page, id: number): Promise<Application> {
  const applications = await ownerGet<Application[]>(page, '/api/applications');
  return applications.find((application) => application.id === id)!;
}

function keyauthCard(page: Page) {
  const tab = page.getByRole('tabpanel', { name: TAB });
  return {
    enabled: tab.getByRole('switch', { name: "Answer KeyAuth's client libraries" }),
    ownerId: tab.getByRole('textbox', { name: 'Owner ID' }),
    name: tab.getByRole('textbox', { name: 'Application name (KeyAuth)' }),
    hours: tab.getByRole('textbox', { name: 'Session lifetime (hours)' }),
    secret: tab.getByLabel('Secret (API 1.2)'),
    save: tab.getByRole('button', { name: 'Save KeyAuth Settings' }),
    tab,
  };
}

async function reopenTab(page: Page) {
  await page.reload();
  await page.getByRole('tab', { name: TAB }).click();
}

test.describe('KeyAuth compatibility settings', () => {
  test('on with one switch, secret revealed, hours saved, refusals at the field, off after asking', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInAsNewOwner(page, 'Kira KeyAuth');
    const application = await openNewApplicationTab(page, 'Orbit Loader', TAB);
    const card = keyauthCard(page);
    await expect(card.enabled).not.toBeChecked();
    await expect(card.tab.getByText(/None yet: one is generated/)).toBeVisible();

    // On from the keyboard; the server fills in the owner id, the name and a secret.
    await card.enabled.focus();
    await page.keyboard.press('Space');
    await expect(card.enabled).toBeChecked();
    await card.save.click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await expect(card.ownerId).toHaveValue(/^[A-Za-z0-9]{10}$/);
    await expect(card.name).toHaveValue('Orbit Loader');
    const saved = await savedApplication(page, application.id);
    expect(saved).toMatchObject({ keyauthCompatibility: true, keyauthName: 'Orbit Loader' });
    await expect(card.ownerId).toHaveValue(saved.keyauthOwnerId!);
    expect(saved.keyauthSecret).toMatch(/^[0-9a-f]{64}$/);

    // The secret is masked until shown, in its box and in the program's settings.
    await expect(card.secret).toHaveAttribute('type', 'password');
    await expect(card.secret).toHaveValue(saved.keyauthSecret!);
    const api12 = card.tab.locator('pre').filter({ hasText: '/api/1.2/' });
    await expect(api12).not.toContainText(saved.keyauthSecret!);
    await card.tab.getByRole('button', { name: 'Show KeyAuth secret' }).click();
    await expect(card.secret).toHaveAttribute('type', 'text');
    const origin = new URL(page.url()).origin;
    await expect(api12).toContainText(`secret  = "${saved.keyauthSecret}"`);
    await expect(api12).toContainText(`ownerid = "${saved.keyauthOwnerId}"`);
    await expect(api12).toContainText(`url     = "${origin}/api/1.2/"`);
    await expect(card.tab.locator('pre').filter({ hasText: '/api/1.3/' })).toContainText(
      `url     = "${origin}/api/1.3/"`,
    );
    await expect(card.tab.getByTestId('keyauth-public-key')).toHaveText(
      application.signingPublicKey,
    );
    await card.tab.getByRole('button', { name: 'Copy KeyAuth secret' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(saved.keyauthSecret);

    // The session lifetime, kept across a reload.
    await card.hours.fill('48');
    await card.save.click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await reopenTab(page);
    await expect(card.hours).toHaveValue('48');
    expect((await savedApplication(page, application.id)).keyauthSessionHours).toBe(48);

    // A bad owner id is told at its field, before anything is sent.
    await card.ownerId.fill('not-an-id');
    await card.save.click();
    await expect(card.ownerId).toHaveAttribute('aria-invalid', 'true');
    await expect(card.tab.getByRole('alert')).toHaveText(
      'KeyAuth owner id must be 10 letters or digits',
    );
    await expect(card.ownerId).toBeFocused();

    // An owner id and name another application has: the server's 409, at the owner id.
    const other = await createApplication(page, 'Orbit Twin');
    await ownerPut(page, `/api/applications/${other.id}`, {
      keyauthCompatibility: true,
      keyauthOwnerId: 'Taken00001',
      keyauthName: 'Orbit Loader',
    });
    await card.ownerId.fill('Taken00001');
    await expect(card.ownerId).not.toHaveAttribute('aria-invalid');
    await card.save.click();
    await expect(toast(page, KEYAUTH_NAME_TAKEN)).toBeVisible();
    await expect(card.ownerId).toHaveAttribute('aria-invalid', 'true');
    await expect(card.tab.getByRole('alert')).toHaveText(KEYAUTH_NAME_TAKEN);
    await expect(card.ownerId).toBeFocused();
    expect((await savedApplication(page, application.id)).keyauthOwnerId).toBe(
      saved.keyauthOwnerId,
    );

    // Off only after the warning; cancelled first, nothing changes.
    await reopenTab(page);
    await card.enabled.click();
    await card.save.click();
    const confirm = page.getByRole('alertdialog', { name: 'Turn off KeyAuth compatibility?' });
    await expect(confirm).toContainText(
      "Programs built on KeyAuth's client libraries will be refused until you turn this back on.",
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect((await savedApplication(page, application.id)).keyauthCompatibility).toBe(true);
    await card.save.click();
    await confirm.getByRole('button', { name: 'Turn Off' }).click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    expect((await savedApplication(page, application.id)).keyauthCompatibility).toBe(false);
    await reopenTab(page);
    await expect(card.enabled).not.toBeChecked();
    // The identity stays for the next time it is turned on.
    await expect(card.ownerId).toHaveValue(saved.keyauthOwnerId!);
  });

  test('at 390 and 1280 px in both themes, a refusal shown and a secret being pasted; axe clean', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signInAsNewOwner(page, 'Lars Layout');
    const application = await createApplication(page, 'Orbit Loader With A Rather Long Name');
    await ownerPut(page, `/api/applications/${application.id}`, { keyauthCompatibility: true });
    const problems: string[] = [];
    await forEachTheme(page, async (theme) => {
      await forEachViewport(page, async (viewport) => {
        await page.goto(`/app/${application.id}`);
        await page.getByRole('tab', { name: TAB }).click();
        const card = keyauthCard(page);
        await expect(card.ownerId).toHaveValue(/^[A-Za-z0-9]{10}$/);
        await card.tab.getByRole('button', { name: 'Show KeyAuth secret' }).click();
        await card.tab.getByRole('button', { name: "Use KeyAuth's Secret" }).click();
        await card.tab.getByRole('textbox', { name: 'Secret from KeyAuth' }).fill('0f'.repeat(40));
        await card.save.click();
        await expect(card.tab.getByRole('alert')).toHaveText(
          'KeyAuth secret must be 64 hex characters',
        );
        await card.tab
          .getByRole('heading', { name: 'KeyAuth Compatibility' })
          .scrollIntoViewIfNeeded();
        await checkLayout(page, `keyauth-settings-${viewport.name}-${theme}`, problems, {
          testInfo,
          fullPage: true,
        });
      });
    });
    expect(problems).toEqual([]);
  });
});
