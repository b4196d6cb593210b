import { clientCall, registerEndUsers } from './support/client-api.ts';
import {
  CONSOLE_PAGES,
  declaredConsoleRoutes,
  type ConsolePage,
  type SeededConsole,
} from './support/console-pages.ts';
import {
  checkNoSidewaysScroll,
  checkRowActions,
  expectTheme,
  forEachViewport,
  PHONE,
  seriousAxeViolations,
  settle,
  storeTheme,
  THEMES,
  type Theme,
} from './support/layout-checks.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { inBrowserOfItsOwn, signInAsNewOwner, signInWithGoogle } from './support/owners.ts';
import { SITE_OWNER } from './support/site-owner.ts';
import { expect, test, type Page, type TestInfo } from './support/test.ts';

/** Something in every table and stat card: an application with users, activity, a block, a hook. */
async function seedConsole(page: Page, checkerName: string): Promise<SeededConsole> {
  const application = await createApplication(
    page,
    'Layout Check Client',
    'A description long enough to be truncated in a narrow column',
  );
  await createApplication(page, 'Second Client');
  await registerEndUsers(page, application, ['alice', 'bob-with-a-rather-long-username', 'carol']);
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

/** Every check of one page in one state; what fails is added to `problems`, so one run lists all. */
async function checkPage(
  page: Page,
  entry: ConsolePage,
  label: string,
  problems: string[],
  testInfo: TestInfo,
): Promise<void> {
  await settle(page, { untilLoaded: true });
  await checkNoSidewaysScroll(page, label, problems);
  problems.push(...(await seriousAxeViolations(page, label)));

  // Before the clicks below scroll the tables: the screenshot shows the page as it opens. From
  // the top, or the sticky header is drawn over the middle of the full-page image.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath(`${label}.png`), fullPage: true });

  const actionCount = await checkRowActions(
    page.locator('table tbody').locator('button, a[href]'),
    label,
    problems,
  );
  if (entry.hasRowActions && actionCount === 0) problems.push(`${label}: no row actions found`);
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
    await storeTheme(page, theme);
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await page.goto(entry.path(seed));
    await expect(
      page.getByRole('heading', { level: 1, name: entry.heading(seed) }),
      `${entry.name} rendered`,
    ).toBeVisible();
    await expectTheme(page, theme, `${entry.name} in the ${theme} theme`);
    await entry.prepare?.(page, seed);
    await forEachViewport(page, (viewport) =>
      checkPage(page, entry, `${entry.name}-${viewport.name}-${theme}`, problems, testInfo),
    );
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
      await inBrowserOfItsOwn(browser, async (ownerPage) => {
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
      });

      expect(problems).toEqual([]);
    });
  }
});
