import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const PHONE = { name: 'phone', width: 390, height: 844 } as const;
export const DESKTOP = { name: 'desktop', width: 1280, height: 800 } as const;
export type Viewport = typeof PHONE | typeof DESKTOP;
/** The widths every page is checked at, the phone's first. */
export const VIEWPORTS: readonly Viewport[] = [PHONE, DESKTOP];

/**
 * For specs that run one test per width, each in one theme: the wide screen light, the phone
 * dark (the other pairs are covered where both themes run at both widths).
 */
export const THEMED_VIEWPORTS = [
  { ...DESKTOP, theme: 'light' },
  { ...PHONE, theme: 'dark' },
] as const;

/** The console's own storage key (apps/console/src/lib/theme.ts). */
const THEME_STORAGE_KEY = 'latchkey-auth-theme';

/** Chooses the console's theme for this browser; it applies on the next load. */
export async function storeTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
    THEME_STORAGE_KEY,
    theme,
  ] as const);
}

/** The page is drawn in `theme`. */
export async function expectTheme(page: Page, theme: Theme, message?: string): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.classList.contains('dark')),
    message,
  ).toBe(theme === 'dark');
}

/**
 * Runs `each` once per theme, having stored the theme (so the page `each` opens is drawn in it)
 * and set the phone's width.
 */
export async function forEachTheme(
  page: Page,
  each: (theme: Theme) => Promise<void>,
): Promise<void> {
  for (const theme of THEMES) {
    await storeTheme(page, theme);
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await each(theme);
  }
}

/** Runs `each` at each of `viewports` in turn, the page resized to it first. */
export async function forEachViewport(
  page: Page,
  each: (viewport: Viewport) => Promise<void>,
  viewports: readonly Viewport[] = VIEWPORTS,
): Promise<void> {
  for (const viewport of viewports) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await each(viewport);
  }
}

/**
 * Waits until data has arrived and one-shot animations (fades, rise-ins) have ended; with
 * `untilLoaded`, also until nothing on the page says it is busy and the splash screen is gone.
 */
export async function settle(page: Page, { untilLoaded = false } = {}): Promise<void> {
  await page.waitForLoadState('networkidle');
  if (untilLoaded) {
    await expect(page.locator('[aria-busy="true"], [data-testid="splash-screen"]')).toHaveCount(0);
  }
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * axe's serious and critical findings on the page, one line each. A finding is checked again
 * once the page has settled anew: a toast that starts fading out on its timer while axe reads
 * it falls short of the contrast for a moment, which is no finding; a real one is found twice.
 */
export async function seriousAxeViolations(page: Page, label: string): Promise<string[]> {
  const first = await seriousAxeViolationsNow(page, label);
  if (first.length === 0) return first;
  await settle(page);
  return seriousAxeViolationsNow(page, label);
}

async function seriousAxeViolationsNow(page: Page, label: string): Promise<string[]> {
  // Only violations are read; leaving out passes and incompletes makes axe much faster.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${label}: axe ${violation.impact} ${violation.id} on ${violation.nodes.length} node(s): ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}

/** Adds a problem when the page is wider than the window (it scrolls sideways). */
export async function checkNoSidewaysScroll(
  page: Page,
  label: string,
  problems: string[],
): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  if (overflow > 0) problems.push(`${label}: the page scrolls sideways by ${overflow} px`);
}

/** Where a check saves its picture of the page: the test's output folder, as `<label>.png`. */
export interface Screenshot {
  testInfo: TestInfo;
  fullPage?: boolean;
}

async function takeScreenshot(
  target: Page | Locator,
  label: string,
  { testInfo, fullPage = false }: Screenshot,
): Promise<void> {
  await target.screenshot({ path: testInfo.outputPath(`${label}.png`), fullPage });
}

/**
 * The page's state as a whole, once settled: nothing scrolls sideways and axe finds nothing
 * serious; then, with `screenshot`, a picture of it. What fails is added to `problems`, so one
 * run lists every state that fails.
 */
export async function checkLayout(
  page: Page,
  label: string,
  problems: string[],
  screenshot?: Screenshot,
): Promise<void> {
  await settle(page);
  await checkNoSidewaysScroll(page, label, problems);
  problems.push(...(await seriousAxeViolations(page, label)));
  if (screenshot) await takeScreenshot(page, label, screenshot);
}

/**
 * An open dialog, once settled: axe finds nothing serious and the dialog fits the window's
 * `width`; then a picture of the page.
 */
export async function checkDialog(
  page: Page,
  dialog: Locator,
  label: string,
  problems: string[],
  { width, ...screenshot }: Screenshot & { width: number },
): Promise<void> {
  await settle(page);
  problems.push(...(await seriousAxeViolations(page, label)));
  await takeScreenshot(page, label, screenshot);
  const box = await dialog.boundingBox();
  if (!box || box.x < 0 || box.x + box.width > width) {
    problems.push(`${label}: the dialog does not fit the screen`);
  }
}

/**
 * A trial click on each of `actions` (with `count`, there must be exactly that many): it
 * scrolls the control into view and checks it is visible, enabled and the element that would
 * receive the click (not hidden under a pinned column or the header).
 */
export async function checkRowActions(
  actions: Locator,
  label: string,
  problems: string[],
  count?: number,
): Promise<number> {
  if (count !== undefined) await expect(actions).toHaveCount(count);
  const actionCount = count ?? (await actions.count());
  for (let index = 0; index < actionCount; index += 1) {
    const action = actions.nth(index);
    try {
      await action.click({ trial: true, timeout: 3_000 });
    } catch {
      const name = (await action.getAttribute('aria-label')) ?? (await action.textContent());
      problems.push(`${label}: row action "${name}" (#${index}) cannot be clicked`);
    }
  }
  return actionCount;
}
