import type { Application } from '@latchkey/contracts';
import { clientCall } from './support/client-api.ts';
import { checkLayout } from './support/layout-checks.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

const USER_COUNT = 250;
const PASSWORD = 'pw-bulk-123';

/** Runs `work` over `items`, `concurrency` at a time. */
async function inParallel<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

/**
 * 250 end users, each logged in through the real client API with a live session started from
 * that login, as 250 running copies of the vendor's program would be.
 */
async function seedLiveUsers(page: Page, application: Application): Promise<string[]> {
  const usernames = Array.from({ length: USER_COUNT }, (_, index) => `bulk_${index + 1}`);
  await inParallel(usernames, 8, async (username) => {
    await ownerPost(page, `/api/applications/${application.id}/users`, {
      username,
      password: PASSWORD,
    });
  });
  return inParallel(usernames, 8, async (username) => {
    const login = await clientCall(page, application, 'login', {
      username,
      password: PASSWORD,
      version: application.version || '1.0.0',
    });
    expect(login.code).toBe('OK');
    const started = await clientCall(page, application, 'session/track', {
      action: 'start',
      user_id: login.user_id,
      session_token: login.session_token,
    });
    expect(started.code).toBe('OK');
    return login.session_token!;
  });
}

test.describe('bulk actions on end users', () => {
  test('a bulk pause of 250 users shows progress and ends their sessions', async ({ page }) => {
    test.setTimeout(240_000);
    await signInAsNewOwner(page, 'Bulk Bea');
    const application = await createApplication(page, 'Bulk Desk');
    const sessionTokens = await seedLiveUsers(page, application);

    await page.goto(`/app/${application.id}`);
    await expect(page.getByTestId('stat-live-sessions')).toHaveText(String(USER_COUNT));
    await page.getByRole('tab', { name: /Users/ }).click();
    const panel = page.getByRole('tabpanel', { name: /Users/ });
    await expect(panel.getByText(/Showing 1–50 of 250/)).toBeVisible();

    await panel.getByRole('checkbox', { name: 'Select all users on this page' }).click();
    const bar = panel.getByRole('region', { name: 'Bulk actions' });
    await expect(bar.getByText('50 users selected')).toBeVisible();
    await bar.getByRole('button', { name: 'Select all 250 users' }).click();
    await expect(bar.getByText('All 250 users selected')).toBeVisible();

    await bar.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByText('Pause 250 users?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Pause 250 users' }).click();

    // The toast first: it is up for five seconds from the moment the action ends, and on a
    // loaded machine the checks of the progress bar below can take longer than that.
    await expect(toast(page, '250 users updated')).toBeVisible({ timeout: 30_000 });
    // The progress bar: fed by the event stream where it runs, full once the answer is back.
    const progress = bar.getByRole('progressbar', { name: 'Bulk action progress' });
    await expect(progress).toBeVisible();
    await expect(progress).toHaveAttribute('aria-valuenow', '100');
    await expect(progress).toHaveAttribute('aria-valuetext', '250 of 250 users');
    await expect(bar.getByText('Pause: 250 done, 0 skipped.')).toBeVisible();

    // The list shows them paused, and their sessions are over.
    await expect(
      panel
        .getByTestId(/^user-row-/)
        .first()
        .getByText('Paused'),
    ).toBeVisible();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByTestId('stat-live-sessions')).toHaveText('0');
    for (const token of [sessionTokens[0]!, sessionTokens[124]!, sessionTokens[249]!]) {
      const heartbeat = await clientCall(page, application, 'session/track', {
        action: 'heartbeat',
        session_token: token,
      });
      expect(heartbeat.success).toBe(false);
      expect(heartbeat.code).toBe('ACCOUNT_DISABLED');
    }
  });

  test('the dashboard’s Users tab at 390 px, by keyboard: extend the users matching a search', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await signInAsNewOwner(page, 'Bulk Kit');
    const application = await createApplication(page, 'Phone Desk');
    const expiresAt = '2030-01-01T00:00:00.000Z';
    for (const username of ['trial_a', 'trial_b', 'trial_c', 'keeper']) {
      await ownerPost(page, `/api/applications/${application.id}/users`, {
        username,
        password: PASSWORD,
        expiresAt,
      });
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    await page.getByRole('row').filter({ hasText: 'Phone Desk' }).getByText('Phone Desk').click();
    await page.getByRole('tab', { name: 'Users (Phone Desk)' }).click();
    await page.getByRole('searchbox', { name: 'Search users' }).fill('trial');
    await expect(page.getByTestId(/^user-row-/)).toHaveCount(3);

    // Keyboard only: the page's checkbox, then the bar's Extend, then the dialog.
    const pageCheckbox = page.getByRole('checkbox', { name: 'Select all users on this page' });
    await pageCheckbox.focus();
    await page.keyboard.press('Space');
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await expect(bar.getByText('3 users selected')).toBeVisible();
    const problems: string[] = [];
    await checkLayout(page, 'bulk-bar-phone', problems, { testInfo, fullPage: true });
    expect(problems).toEqual([]);
    for (const name of ['Pause', 'Unpause', 'Set expiry', 'Extend', 'Reset HWID', 'Delete']) {
      await bar.getByRole('button', { name, exact: true }).click({ trial: true });
    }

    await bar.getByRole('button', { name: 'Extend', exact: true }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByText('Extend 3 users?')).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await dialog.getByLabel('Days to add').fill('10');
    await dialog.getByRole('button', { name: 'Extend 3 users' }).focus();
    await page.keyboard.press('Enter');
    await expect(bar.getByText('Extend: 3 done, 0 skipped.')).toBeVisible();

    const listed = await page.request.get(`/api/applications/${application.id}/users`);
    const users = (await listed.json()) as { username: string; expiresAt: string }[];
    const expiries = Object.fromEntries(users.map((user) => [user.username, user.expiresAt]));
    expect(expiries).toEqual({
      trial_a: '2030-01-11T00:00:00.000Z',
      trial_b: '2030-01-11T00:00:00.000Z',
      trial_c: '2030-01-11T00:00:00.000Z',
      keeper: expiresAt,
    });
  });
});
