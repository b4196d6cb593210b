import { expect, test } from './support/test.ts';

/**
 * The shared fixture that fails every spec on a Content-Security-Policy violation sees what the
 * site's policy refuses, also when the page catches the error (as zod's eval probe did). Each
 * test empties the list once it has checked it, so the fixture itself does not fail the test.
 */
test.describe('the CSP violation check every spec runs under', () => {
  test('reports an eval the page catches', async ({ page, cspViolations }) => {
    await page.goto('/no-such-page');
    await expect(page.getByText('404 Page Not Found')).toBeVisible();
    expect(cspViolations).toEqual([]);

    // In a task of the page's own: code Playwright evaluates directly may use eval.
    await page.evaluate(() => {
      setTimeout(() => {
        try {
          new Function('');
        } catch {
          // The policy refuses it; the report is what the check must see.
        }
      });
    });
    await expect
      .poll(() => cspViolations)
      .toEqual([
        expect.stringMatching(/^event: script-src blocked eval .*\(on .*\/no-such-page\)$/),
      ]);
    cspViolations.length = 0;
  });

  test('reports an inline script in a context the spec opens itself', async ({
    browser,
    baseURL,
    cspViolations,
  }) => {
    const context = await browser.newContext({ baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/no-such-page');
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.name = "ran";';
        document.body.append(script);
      });
      expect(await page.evaluate(() => window.name)).toBe('');
      await expect
        .poll(() => cspViolations)
        .toContainEqual(expect.stringMatching(/^event: script-src-elem blocked inline/));
      cspViolations.length = 0;
    } finally {
      await context.close();
    }
  });
});
