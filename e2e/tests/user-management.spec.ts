import { createApplication, currentUser } from './support/owner-api.ts';
import { pageOfItsOwn, signInAsNewOwner, signInWithGoogle } from './support/owners.ts';
import { SITE_OWNER } from './support/site-owner.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

const NO_PERMISSION =
  "You don't have permission to manage users. This feature is restricted to administrators and site owners.";

function accountCard(page: Page, accountId: string): Locator {
  return page.getByTestId(`site-account-${accountId}`);
}

test.describe('user management', () => {
  test('the site owner lists and searches accounts, edits a vendor, deactivates it, reads the audit trail and deletes it after confirming', async ({
    page,
    browser,
  }) => {
    // A second vendor, in a browser of its own, with an application of its own.
    const vendorPage = await pageOfItsOwn(browser);
    const suffix = Math.random().toString(36).slice(2, 8);
    const vendorName = `Vera Vendor${suffix}`;
    await signInAsNewOwner(vendorPage, vendorName);
    const vendor = await currentUser(vendorPage);
    expect(vendor.userPermissions.role).toBe('user');
    await createApplication(vendorPage, 'Vendor Client');

    await signInWithGoogle(page, SITE_OWNER);
    // The home page has a navigation of its own; the shared header's links start elsewhere.
    await page.goto('/webhooks');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'User Management' })
      .click();
    await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();

    const owner = await currentUser(page);
    const ownerCard = accountCard(page, owner.id);
    await expect(ownerCard.getByText('You', { exact: true })).toBeVisible();
    await expect(ownerCard.getByRole('img', { name: 'Site owner' })).toBeVisible();
    await expect(ownerCard.getByText('Owner', { exact: true })).toBeVisible();
    await expect(ownerCard.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    const vendorCard = accountCard(page, vendor.id);

    // Search: case-insensitive, on the server. The list shows 50 accounts a page, oldest
    // first: with other specs' accounts beside this one, the new vendor is found by search.
    const search = page.getByRole('searchbox', { name: 'Search users' });
    await search.fill(`VENDOR${suffix.toUpperCase()}`);
    await expect(ownerCard).toBeHidden();
    await expect(vendorCard.getByText(vendorName, { exact: true })).toBeVisible();
    await expect(vendorCard.getByText('Active', { exact: true })).toBeVisible();
    await expect(vendorCard.getByText('3 permissions')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Users' }).getByRole('listitem')).toHaveCount(1);
    await search.fill(`nobody-${suffix}`);
    await expect(page.getByText('No users found matching your search.')).toBeVisible();
    await search.fill(vendor.email);
    await expect(vendorCard).toBeVisible();

    // Edit: role, permissions and the active flag in one save.
    await vendorCard.getByRole('button', { name: `Edit ${vendorName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${vendorName}` });
    await expect(dialog.getByText('Access to code editor and system files')).toBeVisible();
    const role = dialog.getByRole('combobox', { name: 'Role' });
    await role.click();
    await page.getByRole('option', { name: 'Moderator', exact: true }).click();
    await expect(role).toHaveText('Moderator');
    await dialog.getByRole('checkbox', { name: 'View All Data' }).click();
    await dialog.getByRole('checkbox', { name: 'Edit Code' }).click();
    await dialog.getByRole('checkbox', { name: 'Active User' }).click();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(
      toast(page, 'User permissions and role have been updated successfully.'),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(vendorCard.getByText('Moderator', { exact: true })).toBeVisible();
    await expect(vendorCard.getByText('Inactive', { exact: true })).toBeVisible();

    // Deactivated: the vendor's console session ended at once.
    expect((await vendorPage.request.get('/api/applications')).status()).toBe(401);

    await page.getByRole('tab', { name: 'Audit Trail' }).click();
    // The trail is site-wide and every owner's writes are in it: find this vendor's entries.
    const auditSearch = page.getByRole('searchbox', { name: 'Search the audit trail' });
    await auditSearch.fill(vendor.email);
    const updateEntry = page
      .getByRole('row')
      .filter({ hasText: vendor.email })
      .filter({ hasText: 'Updated' })
      .first();
    await expect(updateEntry).toContainText(SITE_OWNER.email);
    await expect(updateEntry).toContainText('Role: User → Moderator');
    await expect(updateEntry).toContainText('Status: Active → Inactive');
    await expect(updateEntry).toContainText('Granted: View All Data');
    await expect(updateEntry).toContainText('Withdrawn: Edit Code');
    // The vendor's own write in their environment, recorded with what it touched.
    const createdEntry = page
      .getByRole('row')
      .filter({ hasText: 'Application created' })
      .filter({ hasText: vendor.email });
    await expect(createdEntry).toContainText('Application “Vendor Client”');
    await expect(createdEntry).toContainText('name: Vendor Client');

    await page.getByRole('tab', { name: 'Site Overview' }).click();
    await page.getByRole('searchbox', { name: 'Search accounts' }).fill(vendor.email);
    const overviewRow = page.getByTestId(`overview-row-${vendor.id}`);
    await expect(overviewRow).toContainText('Inactive');
    await expect(overviewRow.getByRole('cell').nth(3)).toHaveText('1');

    // Delete: the confirmation names the account, and its environment goes with it.
    await page.getByRole('tab', { name: 'Users' }).click();
    await vendorCard.getByRole('button', { name: `Delete ${vendorName}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete ${vendorName}?` });
    await expect(confirm).toContainText(vendor.email);
    await expect(confirm).toContainText('whole environment');
    await confirm.getByRole('button', { name: 'Delete User' }).click();
    await expect(toast(page, 'User has been removed from the system.')).toBeVisible();
    await expect(vendorCard).toBeHidden();
    // The search typed before the visit to the other tabs is still there: it found only the
    // vendor, who is gone now.
    await expect(search).toHaveValue(vendor.email);
    await expect(page.getByText('No users found matching your search.')).toBeVisible();
    await search.fill('');
    await expect(ownerCard).toBeVisible();

    await page.getByRole('tab', { name: 'Audit Trail' }).click();
    // The search typed before is still there.
    await expect(auditSearch).toHaveValue(vendor.email);
    await expect(
      page.getByRole('row').filter({ hasText: vendor.email }).filter({ hasText: 'Deleted' }),
    ).toContainText('Was: Role Moderator; Inactive');
    await vendorPage.context().close();
  });

  test('a user without admin permissions sees the no-permission text and no admin data', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Uma User');
    await page.goto('/webhooks');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'User Management' })).toHaveCount(0);

    const adminCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/admin')) adminCalls.push(request.url());
    });
    await page.goto('/user-management');
    await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: NO_PERMISSION })).toBeVisible();
    await expect(page.getByRole('tab')).toHaveCount(0);
    await expect(page.getByPlaceholder('Search by email or name...')).toHaveCount(0);
    await expect(page.getByText(SITE_OWNER.email)).toHaveCount(0);
    expect(adminCalls).toEqual([]);

    // The server refuses them anyway.
    for (const path of ['/api/admin/users', '/api/admin/audit', '/api/admin/overview']) {
      expect((await page.request.get(path)).status(), path).toBe(403);
    }
  });
});
