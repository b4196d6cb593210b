import { fetchGzipSize } from './support/gzip-size.ts';
import { expect, test } from './support/test.ts';

/** The landing page's first paint needs at most this much gzipped JavaScript. */
const FIRST_PAINT_JS_BUDGET_BYTES = 120 * 1024;

test.describe('first load of the landing page (signed out)', () => {
  test('paints with at most 120 KB of gzipped JavaScript; Firebase and signed-in pages load later', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('progressbar')).toBeVisible();
    await page.waitForLoadState('load');

    const scriptsBeforeLoad = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType(
        'navigation',
      ) as PerformanceNavigationTiming[];
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: entry.name, startTime: entry.startTime }));
      const loadEventStart = navigation?.loadEventStart ?? 0;
      return scripts.filter((script) => script.startTime <= loadEventStart);
    });
    expect(scriptsBeforeLoad.length).toBeGreaterThan(0);
    let totalBytes = 0;
    const sizes: string[] = [];
    for (const { url } of scriptsBeforeLoad) {
      const { bytes, encoding } = await fetchGzipSize(url);
      // The build leaves files under a kilobyte uncompressed: they are counted as sent.
      if (bytes >= 1024) expect(encoding, url).toBe('gzip');
      totalBytes += bytes;
      sizes.push(`${new URL(url).pathname} ${(bytes / 1024).toFixed(1)} KB`);
    }
    const summary = `${(totalBytes / 1024).toFixed(1)} KB of gzipped JS before load:\n  ${sizes.join('\n  ')}`;
    console.log(summary);
    test.info().annotations.push({ type: 'first-paint-gzipped-js', description: summary });
    expect(totalBytes, summary).toBeLessThanOrEqual(FIRST_PAINT_JS_BUDGET_BYTES);
    const firebaseBeforeLoad = scriptsBeforeLoad.filter(({ url }) =>
      /\/assets\/firebase-/.test(url),
    );
    expect(firebaseBeforeLoad, 'the Firebase SDK waits until after first paint').toEqual([]);

    // The sign-in machinery still arrives, after first paint, while the splash plays.
    await expect
      .poll(async () =>
        page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .some((entry) => /\/assets\/firebase-[^/]*\.js$/.test(new URL(entry.name).pathname)),
        ),
      )
      .toBe(true);
    await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible({ timeout: 8_000 });
  });

  test('sends hashed assets compressed and immutable, and index.html revalidated', async ({
    page,
  }) => {
    const assetResponses: { url: string; headers: Record<string, string> }[] = [];
    // headers() answers at once (cache-control and content-encoding are among them): awaiting
    // allHeaders() here left a lazily loaded chunk's lookup running after the test had closed
    // its page, and its rejection failed the next test in the same worker.
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/assets/')) {
        assetResponses.push({ url: response.url(), headers: response.headers() });
      }
    });
    const documentResponse = await page.goto('/');
    expect(documentResponse?.status()).toBe(200);
    const documentHeaders = await documentResponse!.allHeaders();
    expect(documentHeaders['cache-control']).toBe('no-cache');
    await page.waitForLoadState('load');

    const entryScript = assetResponses.find(({ url }) => /\/assets\/index-[^/]+\.js$/.test(url));
    expect(entryScript, 'the entry script was requested').toBeDefined();
    expect(entryScript!.headers['content-encoding']).toMatch(/^(br|gzip)$/);
    expect(entryScript!.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const stylesheet = assetResponses.find(({ url }) => url.endsWith('.css'));
    expect(stylesheet?.headers['content-encoding']).toMatch(/^(br|gzip)$/);
  });

  test('answers crawlers with a robots.txt as text, keeping them out of the API and portals', async ({
    request,
  }) => {
    const response = await request.get('/robots.txt');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/plain/);
    const rules = await response.text();
    expect(rules).toContain('User-agent: *');
    expect(rules).toContain('Disallow: /api/');
    expect(rules).toContain('Disallow: /portal/');
  });
});
