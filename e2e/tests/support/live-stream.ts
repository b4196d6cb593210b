import type { Page } from '@playwright/test';

/**
 * Refuses the console's live stream (GET /api/events) for this page, so it polls instead. For
 * tests of polling and of error states: an open stream rereads the page's lists when it opens,
 * which would race a test that fails a list on purpose and then recovers it by hand.
 */
export async function withoutLiveStream(page: Page): Promise<void> {
  await page.route('**/api/events', (route) => route.fulfill({ status: 503, body: '' }));
}
