import { expect, test } from './support/test.ts';

/**
 * The rendered API reference works under the site's Content-Security-Policy (its inline
 * script allowed by hash, nothing else loosened) and loads nothing from another origin.
 */
test('the API reference renders the generated document, offline and under the CSP', async ({
  page,
  baseURL,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith(baseURL!)) problems.push(`external request: ${request.url()}`);
  });

  await page.goto('/api/reference');
  await expect(page).toHaveURL(/\/api\/reference\/$/);
  await expect(page.getByRole('heading', { name: 'Latchkey API', level: 1 })).toBeVisible();
  await expect(page.getByText('Log an end user in').first()).toBeVisible();
  expect(problems).toEqual([]);
});
