import { clientCall } from './support/client-api.ts';
import { chooseAndExpectShown } from './support/controls.ts';
import { withoutLiveStream } from './support/live-stream.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';

async function expectStats(
  page: Page,
  stats: { total: number; successful: number; failed: number; uniqueIps: number },
): Promise<void> {
  await expect(page.getByTestId('activity-stat-total')).toHaveText(String(stats.total));
  await expect(page.getByTestId('activity-stat-successful')).toHaveText(String(stats.successful));
  await expect(page.getByTestId('activity-stat-failed')).toHaveText(String(stats.failed));
  await expect(page.getByTestId('activity-stat-unique-ips')).toHaveText(String(stats.uniqueIps));
}

function logRows(page: Page): Locator {
  return page.getByTestId('activity-log-row');
}

function logRow(page: Page, event: string): Locator {
  return logRows(page).filter({ hasText: event });
}

test.describe('activity logs', () => {
  test('lists real client-API events with stat cards, filters, search and empty states', async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Lena Logs');
    const orbit = await createApplication(page, 'Orbit Client');
    const nova = await createApplication(page, 'Nova Client');

    // A fresh owner has recorded nothing yet.
    await page.goto('/activity-logs');
    await expect(page.getByRole('heading', { name: 'Activity Logs', level: 1 })).toBeVisible();
    await expect(
      page.getByRole('heading', { name: 'No authentication events have been recorded yet' }),
    ).toBeVisible();
    await expectStats(page, { total: 0, successful: 0, failed: 0, uniqueIps: 0 });

    // Real events, through the public client API. The registrations send no HWID: one that did
    // would bind a device, a Device Added event of its own (covered by
    // apps/server/src/modules/devices/devices.test.ts).
    const version = orbit.version || '1.0.0';
    expect(
      await clientCall(page, orbit, 'register', {
        username: 'alice',
        email: 'alice@example.com',
        password: 'correct horse',
      }),
    ).toMatchObject({ success: true, code: 'OK' });
    expect(
      await clientCall(page, orbit, 'login', {
        username: 'alice',
        password: 'correct horse',
        version,
        hwid: 'PC-ALICE',
      }),
    ).toMatchObject({ success: true, code: 'OK' });
    expect(
      await clientCall(page, orbit, 'login', {
        username: 'alice',
        password: 'wrong password',
        version,
        hwid: 'PC-ALICE',
      }),
    ).toMatchObject({ success: false, code: 'INVALID_CREDENTIALS' });
    expect(
      await clientCall(page, nova, 'register', {
        username: 'bob',
        password: 'battery staple',
      }),
    ).toMatchObject({ success: true, code: 'OK' });
    await ownerPost(page, '/api/blacklist', {
      type: 'username',
      value: 'mallory',
      reason: 'Chargebacks',
    });
    expect(
      await clientCall(page, nova, 'login', {
        username: 'mallory',
        password: 'whatever',
        version,
        hwid: 'PC-EVIL',
      }),
    ).toMatchObject({ success: false, code: 'BLACKLISTED' });

    // The recorder writes off the response path: reload until all five are listed.
    await expect(async () => {
      await page.reload();
      await expect(logRows(page)).toHaveCount(5, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expectStats(page, { total: 5, successful: 3, failed: 2, uniqueIps: 1 });
    // The server pages the log; the total is its count, not the rows on screen.
    await expect(page.getByRole('navigation', { name: 'Activity log pages' })).toContainText(
      'Showing 1–5 of 5',
    );

    // The columns.
    const failed = logRow(page, 'Login Failed');
    await expect(failed.getByRole('img', { name: 'Failure' })).toBeVisible();
    await expect(failed).toContainText('alice');
    await expect(failed).toContainText('Orbit Client');
    await expect(failed).toContainText('Invalid username or password');
    const ipAddress = (await failed.getByRole('cell').nth(4).textContent())!;
    expect(ipAddress).toMatch(/^(127\.0\.0\.1|::1)$/);
    const login = logRow(page, 'User Login');
    await expect(login.getByRole('img', { name: 'Success' })).toBeVisible();
    // No error: the metadata as readable pairs, in the order stored (jsonb sends shorter keys
    // first), and the whole record as sent on hover.
    const loginDetails = login.getByRole('cell').nth(5);
    await expect(loginDetails).toHaveText(`code OK · hwid PC-ALICE · version ${version}`);
    expect(JSON.parse((await loginDetails.getAttribute('title'))!)).toEqual({
      hwid: 'PC-ALICE',
      version,
      code: 'OK',
    });
    const blocked = logRow(page, 'Username Blocked');
    await expect(blocked).toContainText('mallory');
    await expect(blocked).toContainText('Nova Client');
    await expect(blocked.getByRole('cell').nth(5)).toContainText(/blocked/i);
    await expect(logRow(page, 'User Registration')).toHaveCount(2);

    // Application filter: asks the server for that application only.
    const applicationSelect = page.getByRole('combobox', { name: 'Application' });
    const eventSelect = page.getByRole('combobox', { name: 'Event Type' });
    const search = page.getByRole('searchbox', { name: 'Search' });
    const novaRequest = page.waitForRequest((request) =>
      request.url().endsWith(`/api/activity-logs?applicationId=${nova.id}`),
    );
    await chooseAndExpectShown(page, applicationSelect, 'Nova Client');
    await novaRequest;
    await expect(logRows(page)).toHaveCount(2);
    await expectStats(page, { total: 2, successful: 1, failed: 1, uniqueIps: 1 });
    await expect(logRows(page).filter({ hasText: 'Orbit Client' })).toHaveCount(0);

    // Event type on top of it.
    await chooseAndExpectShown(page, eventSelect, 'User Registration');
    await expect(logRows(page)).toHaveCount(1);
    await expect(logRows(page)).toContainText('bob');
    await expectStats(page, { total: 1, successful: 1, failed: 0, uniqueIps: 1 });

    // A search that matches nothing.
    await search.fill('nobody-by-that-name');
    await expect(
      page.getByRole('heading', { name: 'No logs match your current filters' }),
    ).toBeVisible();
    await expectStats(page, { total: 0, successful: 0, failed: 0, uniqueIps: 0 });

    // Clear Filters brings everything back.
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(logRows(page)).toHaveCount(5);
    await expect(search).toHaveValue('');
    await expect(applicationSelect).toHaveText('All Applications');
    await expect(eventSelect).toHaveText('All Events');
    await expect(page.getByRole('button', { name: 'Clear Filters' })).toBeDisabled();

    // Search: usernames (any case), IP addresses and event names.
    await search.fill('ALICE');
    await expect(logRows(page)).toHaveCount(3);
    await expectStats(page, { total: 3, successful: 2, failed: 1, uniqueIps: 1 });
    await search.fill(ipAddress);
    await expect(logRows(page)).toHaveCount(5);
    await search.fill('login_blocked');
    await expect(logRows(page)).toHaveCount(1);
    await expect(logRows(page)).toContainText('mallory');

    // Event type alone.
    await search.fill('');
    await chooseAndExpectShown(page, eventSelect, 'Login Failed');
    await expect(logRows(page)).toHaveCount(1);
    await expectStats(page, { total: 1, successful: 0, failed: 1, uniqueIps: 1 });

    // An application with no events of that type: the filter message, not the "none yet" one.
    await chooseAndExpectShown(page, applicationSelect, 'Nova Client');
    await expect(
      page.getByRole('heading', { name: 'No logs match your current filters' }),
    ).toBeVisible();
  });

  test('says so when the logs cannot be fetched, and recovers on Try Again', async ({ page }) => {
    await signInAsNewOwner(page, 'Erin Error');
    await withoutLiveStream(page);
    let isFailing = true;
    await page.route('**/api/activity-logs', (route) =>
      isFailing
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{}' })
        : route.continue(),
    );
    await page.goto('/activity-logs');
    await expect(
      page.getByRole('heading', { name: 'Failed to fetch activity logs' }),
    ).toBeVisible();

    isFailing = false;
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(
      page.getByRole('heading', { name: 'No authentication events have been recorded yet' }),
    ).toBeVisible();
  });
});
