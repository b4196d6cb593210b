import type { BlacklistEntry } from '@latchkey/contracts';
import { chooseAndExpectShown } from './support/controls.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { consoleOriginHeaders, signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

interface NewEntry {
  type: string;
  value: string;
  reason?: string;
  application?: string;
}

async function addEntry(page: Page, entry: NewEntry): Promise<void> {
  await page.getByRole('button', { name: 'Add Blacklist Entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Blacklist Entry' });
  await chooseAndExpectShown(page, dialog.getByRole('combobox', { name: 'Type' }), entry.type);
  await dialog.getByRole('textbox', { name: 'Value' }).fill(entry.value);
  if (entry.reason) await dialog.getByLabel('Reason (optional)').fill(entry.reason);
  if (entry.application) {
    await chooseAndExpectShown(
      page,
      dialog.getByRole('combobox', { name: 'Application' }),
      entry.application,
    );
  }
  await dialog.getByRole('button', { name: 'Add Entry' }).click();
  await expect(toast(page, 'Blacklist entry created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
}

function row(page: Page, value: string): Locator {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: value, exact: true }) });
}

async function expectCounts(
  page: Page,
  counts: { ip: number; username: number; email: number; hwid: number },
): Promise<void> {
  for (const [type, count] of Object.entries(counts)) {
    await expect(page.getByTestId(`blacklist-count-${type}`)).toHaveText(String(count));
  }
}

test.describe('blacklist', () => {
  test('adds global and per-application entries of every type, counts them, validates, and deletes after confirming', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Bella Blacklist');
    const orbit = await createApplication(page, 'Orbit Client');
    const nova = await createApplication(page, 'Nova Client');

    await page.goto('/blacklist');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blacklist' }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { name: 'Blacklist', level: 1 })).toBeVisible();
    for (const title of ['Blocked IP Addresss', 'Usernames', 'Emails', 'Hardware IDs']) {
      await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
    }
    await expectCounts(page, { ip: 0, username: 0, email: 0, hwid: 0 });
    await expect(page.getByRole('heading', { name: 'No blacklist entries' })).toBeVisible();

    // Missing type or value: the spec's message in the dialog, and nothing is sent.
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/blacklist')) {
        posts.push(request.url());
      }
    });
    await page.getByRole('button', { name: 'Add Blacklist Entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Blacklist Entry' });
    await expect(dialog.getByRole('combobox', { name: 'Application' })).toHaveText('Global');
    await dialog.getByRole('textbox', { name: 'Value' }).fill('mallory');
    await dialog.getByRole('button', { name: 'Add Entry' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please select a type and provide a value');
    await chooseAndExpectShown(page, dialog.getByRole('combobox', { name: 'Type' }), 'Username');
    await dialog.getByRole('textbox', { name: 'Value' }).fill('   ');
    await dialog.getByRole('button', { name: 'Add Entry' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please select a type and provide a value');
    // The application list offers the owner's applications by name, as the dashboard lists them.
    await dialog.getByRole('combobox', { name: 'Application' }).click();
    await expect(page.getByRole('option')).toHaveText(['Global', 'Nova Client', 'Orbit Client']);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(posts).toEqual([]);

    // An IP entry must be one address or range, as the server would say.
    await page.getByRole('button', { name: 'Add Blacklist Entry' }).click();
    await chooseAndExpectShown(page, dialog.getByRole('combobox', { name: 'Type' }), 'IP Address');
    await dialog.getByRole('textbox', { name: 'Value' }).fill('10.0.0.0/33');
    await dialog.getByRole('button', { name: 'Add Entry' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Please enter a valid IP address or CIDR range',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await addEntry(page, { type: 'IP Address', value: '203.0.113.7', reason: 'Card testing' });
    await addEntry(page, { type: 'Username', value: 'mallory', application: 'Orbit Client' });
    await addEntry(page, { type: 'Email', value: 'spam@example.com', reason: 'Throwaway domain' });
    await addEntry(page, {
      type: 'Hardware ID',
      value: 'HWID-BAD-0001',
      application: 'Nova Client',
    });
    expect(posts).toHaveLength(4);

    await expectCounts(page, { ip: 1, username: 1, email: 1, hwid: 1 });
    const ipRow = row(page, '203.0.113.7');
    await expect(ipRow).toContainText('IP Address');
    await expect(ipRow).toContainText('Global');
    await expect(ipRow).toContainText('Card testing');
    await expect(ipRow).toContainText('Active');
    await expect(ipRow).toContainText(new Date().toLocaleDateString('en-US'));
    const usernameRow = row(page, 'mallory');
    await expect(usernameRow).toContainText('Username');
    await expect(usernameRow).toContainText('Orbit Client');
    await expect(usernameRow).toContainText('No reason provided');
    await expect(row(page, 'spam@example.com')).toContainText('Global');
    await expect(row(page, 'HWID-BAD-0001')).toContainText('Nova Client');
    await expect(row(page, 'HWID-BAD-0001')).toContainText('Hardware ID');

    // Stored as chosen: global entries have no application; the others name theirs.
    const stored = (await (await page.request.get('/api/blacklist')).json()) as BlacklistEntry[];
    const scopes = Object.fromEntries(stored.map((entry) => [entry.value, entry.applicationId]));
    expect(scopes).toEqual({
      '203.0.113.7': null,
      mallory: orbit.id,
      'spam@example.com': null,
      'HWID-BAD-0001': nova.id,
    });

    // A duplicate is refused by the server, in its own words.
    await page.getByRole('button', { name: 'Add Blacklist Entry' }).click();
    await chooseAndExpectShown(page, dialog.getByRole('combobox', { name: 'Type' }), 'Username');
    await dialog.getByRole('textbox', { name: 'Value' }).fill('MALLORY');
    await chooseAndExpectShown(
      page,
      dialog.getByRole('combobox', { name: 'Application' }),
      'Orbit Client',
    );
    await dialog.getByRole('button', { name: 'Add Entry' }).click();
    await expect(toast(page, 'This value is already blacklisted')).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Delete asks first and says access comes back; cancelling keeps the entry.
    await usernameRow.getByRole('button', { name: 'Delete blacklist entry' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete blacklist entry?' });
    await expect(confirm).toContainText('Removing this entry will allow access again');
    await expect(confirm).toContainText('mallory');
    await expect(confirm).toContainText('Orbit Client');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(usernameRow).toBeVisible();

    await usernameRow.getByRole('button', { name: 'Delete blacklist entry' }).click();
    await confirm.getByRole('button', { name: 'Delete Entry' }).click();
    await expect(toast(page, 'Blacklist entry deleted successfully')).toBeVisible();
    await expect(usernameRow).toHaveCount(0);
    await expectCounts(page, { ip: 1, username: 0, email: 1, hwid: 1 });

    // The server agrees after a reload.
    await page.reload();
    await expect(row(page, '203.0.113.7')).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(4);
    await expectCounts(page, { ip: 1, username: 0, email: 1, hwid: 1 });
  });

  test('a failed delete shows the server message in an error toast', async ({ page }) => {
    await signInAsNewOwner(page, 'Felix Failure');
    const entry = await ownerPost<BlacklistEntry>(page, '/api/blacklist', {
      type: 'hwid',
      value: 'HWID-GONE',
    });

    await page.goto('/blacklist');
    const entryRow = row(page, 'HWID-GONE');
    await expect(entryRow).toContainText('Global');
    // Removed elsewhere meanwhile: the delete answers 404 and the list catches up.
    expect(
      (
        await page.request.delete(`/api/blacklist/${entry.id}`, {
          headers: consoleOriginHeaders(page),
        })
      ).status(),
    ).toBe(200);
    await entryRow.getByRole('button', { name: 'Delete blacklist entry' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete blacklist entry?' })
      .getByRole('button', { name: 'Delete Entry' })
      .click();
    await expect(toast(page, 'Blacklist entry not found')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No blacklist entries' })).toBeVisible();
  });
});
