import AxeBuilder from '@axe-core/playwright';
import type { Application, ClientAuthResponse } from '@latchkey/contracts';
import {
  CONSOLE_PAGES,
  declaredConsoleRoutes,
  type ConsolePage,
  type SeededConsole,
} from './support/console-pages.ts';
import { consoleOriginHeaders, signInAsNewOwner, signInWithGoogle } from './support/owners.ts';
import { SITE_OWNER } from './support/site-owner.ts';
import { expect, test, type Page, type TestInfo } from './support/test.ts';

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

/** The console's own storage key (apps/console/src/lib/theme.ts). */
const THEME_STORAGE_KEY = 'latchkey-auth-theme';

async function ownerPost(page: Page, path: string, data: unknown): Promise<unknown> {
  const response = await page.request.post(path, { headers: consoleOriginHeaders(page), data });
  expect(response.status(), `POST ${path}`).toBe(201);
  return response.json();
}

async function clientCall(
  page: Page,
  application: Application,
  action: 'register' | 'login',
  data: Record<string, unknown>,
): Promise<ClientAuthResponse> {
  const response = await page.request.post(`/api/v1/${action}`, {
    headers: { 'X-API-Key': application.apiKey },
    data,
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as ClientAuthResponse;
}

/** Something in every table and stat card: an application with users, activity, a block, a hook. */
async function seedConsole(page: Page, checkerName: string): Promise<SeededConsole> {
  const application = (await ownerPost(page, '/api/applications', {
    name: 'Layout Check Client',
    description: 'A description long enough to be truncated in a narrow column',
  })) as Application;
  await ownerPost(page, '/api/applications', { name: 'Second Client' });
  for (const username of ['alice', 'bob-with-a-rather-long-username', 'carol']) {
    expect(
      await clientCall(page, application, 'register', {
        username,
        email: `${username}@example.com`,
        password: 'battery staple',
        hwid: `PC-${username.toUpperCase()}`,
      }),
    ).toMatchObject({ success: true });
  }
  expect(
    await clientCall(page, application, 'login', {
      username: 'alice',
      password: 'wrong password',
      version: application.version || '1.0.0',
      hwid: 'PC-ALICE',
    }),
  ).toMatchObject({ success: false });
  await ownerPost(page, '/api/blacklist', {
    type: 'username',
    value: 'mallory',
    reason: 'Chargebacks on three separate orders',
  });
  await ownerPost(page, '/api/blacklist', { type: 'hwid', value: 'HWID-0123456789-ABCDEF' });
  await ownerPost(page, '/api/webhooks', {
    // Loopback over http is allowed outside production; nothing listens on port 9.
    url: 'http://127.0.0.1:9/a/rather/long/path/for/a/narrow/screen',
    events: ['user_login', 'login_failed', 'hwid_mismatch', 'session_end'],
  });
  return { applicationId: application.id, applicationName: application.name, checkerName };
}

/** Waits until data has arrived and one-shot animations (fades, rise-ins) have ended. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"], [data-testid="splash-screen"]')).toHaveCount(0);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** Every check of one page in one state; what fails is added to `problems`, so one run lists all. */
async function checkPage(
  page: Page,
  entry: ConsolePage,
  theme: Theme,
  viewport: Viewport,
  problems: string[],
  testInfo: TestInfo,
): Promise<void> {
  const label = `${entry.name}-${viewport.name}-${theme}`;
  await page.setViewportSize({ width: viewport.width, height: viewport.height });
  await settle(page);

  const overflow = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  if (overflow.scrollWidth > overflow.innerWidth) {
    problems.push(
      `${label}: the page scrolls sideways (${overflow.scrollWidth} px in ${overflow.innerWidth} px)`,
    );
  }

  // Only violations are read; leaving out passes and incompletes makes axe much faster.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  for (const violation of results.violations) {
    if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
    const targets = violation.nodes.slice(0, 5).map((node) => node.target.join(' '));
    problems.push(
      `${label}: axe ${violation.impact} ${violation.id} on ${violation.nodes.length} node(s): ${targets.join(' | ')}`,
    );
  }

  // Before the clicks below scroll the tables: the screenshot shows the page as it opens. From
  // the top, or the sticky header is drawn over the middle of the full-page image.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath(`${label}.png`), fullPage: true });

  // A trial click scrolls the control into view and checks it is visible, enabled and the
  // element that would receive the click (not hidden under a pinned column or the header).
  const actions = page.locator('table tbody').locator('button, a[href]');
  const actionCount = await actions.count();
  if (entry.hasRowActions && actionCount === 0) problems.push(`${label}: no row actions found`);
  for (let index = 0; index < actionCount; index += 1) {
    const action = actions.nth(index);
    try {
      await action.click({ trial: true, timeout: 3_000 });
    } catch {
      const name = (await action.getAttribute('aria-label')) ?? (await action.textContent());
      problems.push(`${label}: row action "${name}" (#${index}) cannot be clicked`);
    }
  }
}

/** Opens each page in `theme` (it applies on load) and checks it at both widths. */
async function checkPages(
  page: Page,
  entries: readonly ConsolePage[],
  theme: Theme,
  seed: SeededConsole,
  problems: string[],
  testInfo: TestInfo,
): Promise<void> {
  for (const entry of entries) {
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [THEME_STORAGE_KEY, theme],
    );
    await page.setViewportSize({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });
    await page.goto(entry.path(seed));
    await expect(
      page.getByRole('heading', { level: 1, name: entry.heading(seed) }),
      `${entry.name} rendered`,
    ).toBeVisible();
    expect(
      await page.evaluate(() => document.documentElement.classList.contains('dark')),
      `${entry.name} in the ${theme} theme`,
    ).toBe(theme === 'dark');
    await entry.prepare?.(page, seed);
    for (const viewport of VIEWPORTS) {
      await checkPage(page, entry, theme, viewport, problems, testInfo);
    }
  }
}

test.describe('layout and accessibility of every page', () => {
  // One theme per test, run side by side: as one test this was the browser suite's longest
  // (5.5 min of CI's 20), and with two workers it neared its own 10 min timeout.
  test.describe.configure({ mode: 'parallel' });

  test('the page list covers every route the console declares', () => {
    const declared = declaredConsoleRoutes();
    expect(declared.length).toBeGreaterThan(5);
    const missing = declared.filter(
      ({ signedIn, route }) =>
        !CONSOLE_PAGES.some((entry) => entry.signedIn === signedIn && entry.route === route),
    );
    expect(missing, 'routes without an entry in support/console-pages.ts').toEqual([]);
  });

  for (const theme of THEMES) {
    test(`at 390 and 1280 px in the ${theme} theme: no sideways page, reachable row actions, axe clean`, async ({
      page,
      browser,
    }, testInfo) => {
      // Every page and state, at both widths: minutes on a shared, busy machine.
      test.setTimeout(600_000);
      // Animations only delay the checks; axe would otherwise see colours halfway through a fade.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const problems: string[] = [];
      const placeholderSeed: SeededConsole = {
        applicationId: 0,
        applicationName: '',
        checkerName: '',
      };

      await page.goto('/firebase-login');
      await checkPages(
        page,
        CONSOLE_PAGES.filter((entry) => !entry.signedIn),
        theme,
        placeholderSeed,
        problems,
        testInfo,
      );

      const checkerName = `Layout Checker ${theme}`;
      await signInAsNewOwner(page, checkerName);
      const seed = await seedConsole(page, checkerName);
      await checkPages(
        page,
        CONSOLE_PAGES.filter((entry) => entry.signedIn && !entry.isSiteOwner),
        theme,
        seed,
        problems,
        testInfo,
      );

      // The administrative pages, as the site owner, in a browser of its own.
      // A context of its own: axe cannot analyse a page made by browser.newPage().
      const ownerContext = await browser.newContext();
      const ownerPage = await ownerContext.newPage();
      await ownerPage.emulateMedia({ reducedMotion: 'reduce' });
      await signInWithGoogle(ownerPage, SITE_OWNER);
      await checkPages(
        ownerPage,
        CONSOLE_PAGES.filter((entry) => entry.isSiteOwner),
        theme,
        seed,
        problems,
        testInfo,
      );
      await ownerContext.close();

      expect(problems).toEqual([]);
    });
  }
});
