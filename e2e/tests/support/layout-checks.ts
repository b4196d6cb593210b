import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Waits until data has arrived and one-shot animations (fades, rise-ins) have ended. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** axe's serious and critical findings on the page as it is, one line each. */
export async function seriousAxeViolations(page: Page, label: string): Promise<string[]> {
  // Only violations are read; leaving out passes and incompletes makes axe much faster.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${label}: axe ${violation.impact} ${violation.id} on ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}
