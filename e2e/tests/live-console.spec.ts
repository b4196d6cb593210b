import { clientPost } from './support/client-api.ts';
import { createApplication } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Page } from './support/test.ts';

/** A client's login reaches an open console within this long, with no reload. */
const PUSH_DEADLINE_MS = 2_000;

/** Waits until the console's live stream (GET /api/events) has answered. */
async function openLiveStream(page: Page, open: () => Promise<unknown>): Promise<void> {
  const streamResponse = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/events' && response.status() === 200,
  );
  await open();
  await streamResponse;
}

test.describe('the live console', () => {
  test("shows a client's login in the open activity log and application page within 2 s, without polling", async ({
    page,
  }) => {
    await signInAsNewOwner(page, 'Liv Live');
    const application = await createApplication(page, 'Pulse Client');
    const register = await clientPost(page, application, 'register', {
      username: 'pulse',
      password: 'correct horse',
    });
    expect((await register.json()) as { success: boolean }).toMatchObject({ success: true });

    let logReads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/activity-logs') logReads += 1;
    });
    await openLiveStream(page, () => page.goto('/activity-logs'));
    await expect(page.getByTestId('activity-log-row').filter({ hasText: 'pulse' })).toHaveCount(1);

    const login = await clientPost(page, application, 'login', {
      username: 'pulse',
      password: 'correct horse',
      version: application.version || '1.0.0',
    });
    expect((await login.json()) as { success: boolean }).toMatchObject({ success: true });
    await expect(
      page.getByTestId('activity-log-row').filter({ hasText: 'User Login' }),
    ).toHaveCount(1, { timeout: PUSH_DEADLINE_MS });
    // The page's first read, the reread when the stream opened, and the one the event prompted:
    // no polling while the stream is open.
    expect(logReads).toBeLessThanOrEqual(3);

    // The application page's numbers follow too.
    await openLiveStream(page, () => page.goto(`/app/${application.id}`));
    await expect(page.getByTestId('stat-success-rate')).toContainText('100');
    const failed = await clientPost(page, application, 'login', {
      username: 'pulse',
      password: 'wrong horse',
      version: application.version || '1.0.0',
    });
    expect((await failed.json()) as { success: boolean }).toMatchObject({ success: false });
    await expect(page.getByTestId('stat-success-rate')).toContainText('50', {
      timeout: PUSH_DEADLINE_MS,
    });
  });

  test('falls back to polling while the stream is refused, and returns to it', async ({ page }) => {
    await signInAsNewOwner(page, 'Paul Poll');
    const application = await createApplication(page, 'Fallback Client');
    let isStreamRefused = true;
    await page.route('**/api/events', (route) =>
      isStreamRefused ? route.fulfill({ status: 503, body: '' }) : route.continue(),
    );
    await page.goto(`/app/${application.id}`);
    // Down: the application's numbers are polled every 5 s, counted from the last answer
    // (TanStack Query restarts the interval on each result), so the wait starts at the first
    // answer: a first read slowed by a busy machine must not eat the margin.
    await page.waitForResponse((response) =>
      response.url().endsWith(`/api/applications/${application.id}/stats`),
    );
    const polled = await page.waitForRequest(
      (request) => request.url().endsWith(`/api/applications/${application.id}/stats`),
      { timeout: 8_000 },
    );
    expect(polled).toBeTruthy();
    isStreamRefused = false;
    // Up again after the backoff (at most 30 s; the first retries come within seconds).
    await page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/events' && response.status() === 200,
      { timeout: 30_000 },
    );
  });
});
