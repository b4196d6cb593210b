import {
  applicationMessageLabels,
  defaultApplicationMessages,
  type Application,
  type ApplicationMessageField,
} from '@latchkey/contracts';
import { PHONE } from './support/layout-checks.ts';
import { withoutLiveStream } from './support/live-stream.ts';
import { createApplication } from './support/owner-api.ts';
import { submitNewApplication } from './support/new-application-dialog.ts';
import { inBrowserOfItsOwn, signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function clipboardText(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Calls the owner API from the page itself: same origin, same session cookie. */
async function ownerApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
      return response.json();
    },
    { method, url, body },
  ) as Promise<T>;
}

/** Creates the application through the dashboard's dialog and opens it with Manage. */
async function createAndOpenApplication(page: Page, name: string): Promise<number> {
  await page.goto('/dashboard');
  await submitNewApplication(page, name, 'Point of sale for the corner shop');
  await expect(toast(page, 'Application created successfully')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await row.getByRole('link', { name: 'Manage application' }).click();
  await expect(page).toHaveURL(/\/app\/\d+$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

test.describe('application management page', () => {
  test('shows the application, edits its settings, and manages its users', async ({ page }) => {
    await signInAsNewOwner(page, 'Manon Manager');
    // Users created behind the page's back must wait for Refresh or a return to the window:
    // with the live stream open they would arrive by themselves (live-console.spec.ts).
    await withoutLiveStream(page);
    const applicationId = await createAndOpenApplication(page, 'Till Pro');
    const [application] = (await ownerApi<Application[]>(page, 'GET', '/api/applications')).filter(
      (candidate) => candidate.id === applicationId,
    );

    // Header.
    await expect(page.getByText('Point of sale for the corner shop').first()).toBeVisible();
    await expect(page.getByRole('main').getByText('Active', { exact: true }).first()).toBeVisible();

    // Overview: the three cards.
    await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const overview = page.getByRole('tabpanel', { name: 'Overview' });
    await expect(overview.getByText('1.0.0', { exact: true })).toBeVisible();
    // The part after the prefix every key shares: it tells this key from the others.
    await expect(
      overview.getByText(`${application!.apiKey.slice(0, 16)}...`, { exact: true }),
    ).toBeVisible();
    await overview.getByRole('button', { name: 'Copy API key' }).click();
    await expect(toast(page, 'Text copied to clipboard')).toBeVisible();
    await expect(
      page.locator('li[data-state="open"]').getByText('Copied', { exact: true }),
    ).toBeVisible();
    expect(await clipboardText(page)).toBe(application!.apiKey);
    await expect(overview.getByText('Online', { exact: true })).toBeVisible();
    await expect(overview.getByText('Disabled', { exact: true })).toBeVisible();
    await expect(page.getByTestId('stat-live-sessions')).toHaveText('0');
    await expect(page.getByTestId('stat-api-requests')).toHaveText('0');
    // No requests yet: no rate, rather than a 0% that reads as every login failing.
    await expect(page.getByTestId('stat-success-rate')).toHaveText('—No requests yet');
    await expect(overview.getByText('No recent activity')).toBeVisible();

    // Settings dialog: switches for active and HWID locking.
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Application Settings' });
    await expect(settings.getByRole('textbox', { name: 'Application Name' })).toHaveValue(
      'Till Pro',
    );
    await settings.getByRole('textbox', { name: 'Version', exact: true }).fill('1.2.0');
    await settings.getByRole('switch', { name: 'Hardware ID Locking' }).click();
    await expect(settings.getByRole('switch', { name: 'Application Active' })).toBeChecked();
    await settings.getByRole('button', { name: 'Update Application' }).click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await expect(settings).toBeHidden();
    await expect(overview.getByText('1.2.0', { exact: true })).toBeVisible();
    await expect(overview.getByText('Enabled', { exact: true })).toBeVisible();
    // Cancel leaves things as they are.
    await page.getByRole('button', { name: 'Settings' }).click();
    await settings.getByRole('switch', { name: 'Application Active' }).click();
    await settings.getByRole('button', { name: 'Cancel' }).click();
    await expect(settings).toBeHidden();
    await expect(overview.getByText('Online', { exact: true })).toBeVisible();

    // Users tab: empty, then a user with a bound HWID.
    await page.getByRole('tab', { name: 'Users (0)' }).click();
    await expect(page.getByRole('heading', { name: 'No users found' })).toBeVisible();
    await page.getByRole('button', { name: 'Add User' }).last().click();
    const addDialog = page.getByRole('dialog', { name: 'Create New User' });
    await addDialog.getByLabel('Username').fill('   ');
    await addDialog.getByLabel('Password').fill('hunter2 hunter2');
    await addDialog.getByRole('button', { name: 'Create User' }).click();
    await expect(addDialog.getByRole('alert')).toHaveText('Please fill in username and password');
    await addDialog.getByLabel('Username').fill('bob');
    await addDialog.getByLabel('HWID (optional)').fill('HWID-BOB-DESKTOP-0042');
    await addDialog.getByLabel('Username').press('Enter');
    await expect(toast(page, 'User created successfully')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Users (1)' })).toBeVisible();

    const bob = page.getByTestId('user-row-bob');
    await expect(bob).toContainText('Not provided');
    await expect(bob).toContainText('Active');
    await expect(bob).toContainText('HWID-BOB...');
    await expect(bob).toContainText('Never');
    await bob.getByRole('button', { name: 'Copy HWID' }).click();
    await expect(toast(page, 'Text copied to clipboard')).toBeVisible();
    expect(await clipboardText(page)).toBe('HWID-BOB-DESKTOP-0042');

    // Edit: an expiry in the past shows red.
    await bob.getByRole('button', { name: 'Edit user' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit User' });
    await editDialog.getByLabel('Email').fill('bob@shop.test');
    await editDialog.getByLabel('Expires At').fill('2021-06-30T18:45');
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'User updated successfully')).toBeVisible();
    await expect(bob).toContainText('bob@shop.test');
    const expiredCell = bob.locator('td[data-expired]');
    await expect(expiredCell).toContainText('Jun 30, 2021, 6:45 PM');
    await expect(expiredCell).toHaveClass(/text-destructive/);

    // Pause and unpause; the one status badge keeps saying Expired, which outranks Paused.
    await bob.getByRole('button', { name: 'Pause user' }).click();
    await expect(toast(page, 'User paused successfully')).toBeVisible();
    await expect(bob.getByRole('button', { name: 'Unpause user' })).toBeVisible();
    await expect(bob.locator('[data-status]')).toHaveText('Expired');
    await bob.getByRole('button', { name: 'Unpause user' }).click();
    await expect(toast(page, 'User unpaused successfully')).toBeVisible();
    await expect(bob.getByRole('button', { name: 'Pause user' })).toBeVisible();

    // Reset HWID asks first, then the lock waits for the next login.
    await bob.getByRole('button', { name: 'Reset HWID' }).click();
    const resetConfirm = page.getByRole('alertdialog', { name: 'Reset HWID?' });
    await expect(resetConfirm).toContainText('log in from a different device on their next login');
    await resetConfirm.getByRole('button', { name: 'Reset HWID' }).click();
    await expect(toast(page, 'HWID reset successfully')).toBeVisible();
    await expect(bob).toContainText('Will be set on first login');
    await expect(bob.getByRole('button', { name: 'Reset HWID' })).toHaveCount(0);

    // Refresh picks up a user created elsewhere; so does coming back to the window.
    await ownerApi(page, 'POST', `/api/applications/${applicationId}/users`, {
      username: 'carol',
      password: 'pw-carol-1',
    });
    await expect(page.getByTestId('user-row-carol')).toHaveCount(0);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByTestId('user-row-carol')).toContainText('Will be set on first login');
    await ownerApi(page, 'POST', `/api/applications/${applicationId}/users`, {
      username: 'dave',
      password: 'pw-dave-12',
    });
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    await expect(page.getByTestId('user-row-dave')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Users (3)' })).toBeVisible();

    // Delete asks first and says it cannot be undone.
    await bob.getByRole('button', { name: 'Delete user' }).click();
    const deleteConfirm = page.getByRole('alertdialog', { name: 'Delete user?' });
    await expect(deleteConfirm).toContainText('cannot be undone');
    await deleteConfirm.getByRole('button', { name: 'Delete User' }).click();
    await expect(toast(page, 'User deleted successfully')).toBeVisible();
    await expect(bob).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Users (2)' })).toBeVisible();

    // API Configuration: the key (hidden until shown), the endpoints and the signing key.
    await page.getByRole('tab', { name: 'API Configuration' }).click();
    const keyField = page.getByRole('tabpanel').locator('input[readonly]');
    await expect(keyField).toHaveAttribute('type', 'password');
    await expect(keyField).toHaveValue(application!.apiKey);
    await page.getByRole('button', { name: 'Show API key' }).click();
    await expect(keyField).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide API key' }).click();
    await expect(keyField).toHaveAttribute('type', 'password');
    for (const path of ['/api/v1/register', '/api/v1/login', '/api/v1/verify']) {
      await expect(page.getByText(path, { exact: true })).toBeVisible();
    }
    await expect(page.getByTestId('signing-public-key')).toHaveText(application!.signingPublicKey);
    await page.getByRole('button', { name: 'Copy signing public key' }).click();
    await expect(toast(page, 'Text copied to clipboard')).toBeVisible();
    expect(await clipboardText(page)).toBe(application!.signingPublicKey);

    // Messages: the six texts, edited here in text areas (a message may take a few lines).
    await page.getByRole('tab', { name: 'Messages' }).click();
    const messages = page.getByRole('tabpanel');
    for (const [field, text] of Object.entries(defaultApplicationMessages)) {
      const label = `${applicationMessageLabels[field as ApplicationMessageField]} message`;
      await expect(messages.getByRole('textbox', { name: label })).toHaveValue(text);
    }
    const expired = messages.getByRole('textbox', { name: 'Account expired message' });
    await expired.fill('');
    await messages.getByRole('button', { name: 'Save Messages' }).click();
    await expect(expired).toHaveAttribute('aria-invalid', 'true');
    await expect(messages.getByText('Messages cannot be empty')).toBeVisible();
    await expect(expired).toBeFocused();
    await expired.fill('Your licence has ended.\nRenew it at example.com/renew.');
    await messages.getByRole('button', { name: 'Save Messages' }).click();
    await expect(toast(page, 'Application updated successfully')).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'Messages' }).click();
    await expect(
      page.getByRole('tabpanel').getByRole('textbox', { name: 'Account expired message' }),
    ).toHaveValue('Your licence has ended.\nRenew it at example.com/renew.');
  });

  test('on a phone the tabs scroll sideways, with a mark at each edge that hides tabs', async ({
    page,
  }) => {
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await signInAsNewOwner(page, 'Tara Tabs');
    const application = await createApplication(page, 'Tabbed Desk');
    await page.goto(`/app/${application.id}`);
    const tabs = page.getByRole('tablist');
    await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute(
      'data-state',
      'active',
    );
    const moreStart = page.getByTestId('tabs-more-start');
    const moreEnd = page.getByTestId('tabs-more-end');
    // More tabs than the width: the end is marked, the start (nothing hidden yet) is not.
    expect(await tabs.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true);
    await expect(moreEnd).toHaveCSS('opacity', '1');
    await expect(moreStart).toHaveCSS('opacity', '0');

    // The last tab, reached by keyboard, scrolls into view and the marks swap.
    await page.getByRole('tab', { name: 'Overview' }).focus();
    await page.keyboard.press('End');
    const lastTab = tabs.getByRole('tab').last();
    await expect(lastTab).toBeFocused();
    await expect(lastTab).toBeInViewport({ ratio: 1 });
    await expect(moreEnd).toHaveCSS('opacity', '0');
    await expect(moreStart).toHaveCSS('opacity', '1');
  });

  test('polls the statistics every 5 seconds while the live stream is down', async ({ page }) => {
    await signInAsNewOwner(page);
    // With the live stream open, events refresh the numbers instead (live-console.spec.ts).
    await withoutLiveStream(page);
    const applicationId = await createAndOpenApplication(page, 'Poller');
    // Requests and their answers, in order: the next poll is due 5 s after the last answer
    // (TanStack Query restarts the interval on each result), whatever the answer took.
    const statsEvents: { kind: 'request' | 'answer'; at: number }[] = [];
    const isStats = (url: string) => url.endsWith(`/api/applications/${applicationId}/stats`);
    page.on('request', (request) => {
      if (isStats(request.url())) statsEvents.push({ kind: 'request', at: Date.now() });
    });
    page.on('requestfinished', (request) => {
      if (isStats(request.url())) statsEvents.push({ kind: 'answer', at: Date.now() });
    });
    const userCount = page
      .getByRole('tabpanel', { name: 'Overview' })
      .locator('div', { has: page.getByText('User Count', { exact: true }) })
      .last();
    await expect(userCount).toContainText('0');

    // A user created behind the page's back shows up on the next poll, with no interaction.
    await ownerApi(page, 'POST', `/api/applications/${applicationId}/users`, {
      username: 'erin',
      password: 'pw-erin-1',
    });
    await expect(userCount).toContainText('1', { timeout: 8_000 });
    const requestCount = () => statsEvents.filter((event) => event.kind === 'request').length;
    await expect.poll(requestCount, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const lastRequest = statsEvents.findLastIndex((event) => event.kind === 'request');
    const answerBefore = statsEvents.slice(0, lastRequest).findLast((e) => e.kind === 'answer');
    expect(answerBefore, 'an answer before the latest poll').toBeDefined();
    const gap = statsEvents[lastRequest]!.at - answerBefore!.at;
    expect(gap).toBeGreaterThan(4_000);
    expect(gap).toBeLessThan(7_000);
  });

  test('explains failures: users retried twice, then an error with Try Again; stats status', async ({
    page,
  }) => {
    await signInAsNewOwner(page);
    await withoutLiveStream(page);
    const applicationId = await createAndOpenApplication(page, 'Flaky');
    let userListCalls = 0;
    await page.route(`**/api/applications/${applicationId}/users`, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      userListCalls += 1;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Database is restarting', code: 'INTERNAL' }),
      });
    });
    await page.route(`**/api/applications/${applicationId}/stats`, (route) =>
      route.fulfill({ status: 500, body: '' }),
    );
    await page.reload();

    await page.getByRole('tab', { name: /^Users/ }).click();
    await expect(page.getByRole('heading', { name: 'Error loading users' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByText('Database is restarting')).toBeVisible();
    expect(userListCalls).toBe(3);

    await page.unroute(`**/api/applications/${applicationId}/users`);
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByRole('heading', { name: 'No users found' })).toBeVisible();

    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByText('Failed to fetch stats: 500')).toBeVisible();
  });

  test('shows the invalid-id and not-found states, also for another owner’s application', async ({
    page,
    browser,
  }) => {
    await signInAsNewOwner(page);
    for (const path of ['/app/abc', '/app/0', '/app/-4', '/app/1.5']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Invalid application ID' })).toBeVisible();
    }

    await page.goto('/app/2147483000');
    await expect(page.getByRole('heading', { name: 'Application Not Found' })).toBeVisible();
    await expect(page.getByText(/does not exist, or it belongs to another account/)).toBeVisible();
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL('/dashboard');

    // While the owner's applications load.
    await page.route('**/api/applications', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto('/app/2147483000');
    await expect(page.getByText('Loading application...')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Application Not Found' })).toBeVisible();
    await page.unroute('**/api/applications');

    // Another owner's application is just as unknown.
    const foreign = await inBrowserOfItsOwn(browser, async (otherPage) => {
      await signInAsNewOwner(otherPage, 'Other Owner');
      return ownerApi<Application>(otherPage, 'POST', '/api/applications', { name: 'Not Yours' });
    });
    await page.goto(`/app/${foreign.id}`);
    await expect(page.getByRole('heading', { name: 'Application Not Found' })).toBeVisible();
    await expect(page.getByText('Not Yours')).toHaveCount(0);
  });
});
