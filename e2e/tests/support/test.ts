import { test as base, type Browser, type BrowserContext } from '@playwright/test';

export { expect } from '@playwright/test';
export type { Locator, Page, TestInfo } from '@playwright/test';

const reportBindingName = '__latchkeyReportCspViolation';

declare global {
  interface Window {
    [reportBindingName]?: (report: string) => Promise<void>;
  }
}

/**
 * The `test` every spec uses: it fails a test when any page in any of its browser contexts
 * (the default one, and any the spec opens with `browser.newContext()` or `browser.newPage()`)
 * reports a Content-Security-Policy violation. A blocked script, style or `eval` is a broken
 * feature or a library probing for something the policy refuses; either way the owner sees
 * the report in their own console, so it is a bug even when the page still works.
 */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ browser }, use) => {
      const violations: string[] = [];
      const newContext = browser.newContext;
      // browser.newPage() creates its context through this method too.
      const checkedNewContext: Browser['newContext'] = async (...args) => {
        const context = await newContext.apply(browser, args);
        await reportCspViolations(context, violations);
        return context;
      };
      browser.newContext = checkedNewContext;
      try {
        await use(violations);
      } finally {
        browser.newContext = newContext;
      }
      if (violations.length > 0) {
        throw new Error(
          `The page reported ${violations.length} Content-Security-Policy violation(s):\n` +
            violations.map((violation) => `  ${violation}`).join('\n'),
        );
      }
    },
    { auto: true },
  ],
  context: async ({ context, cspViolations }, use) => {
    await reportCspViolations(context, cspViolations);
    await use(context);
  },
});

// Playwright may create the default context through the wrapped browser.newContext as well.
const checkedContexts = new WeakSet<BrowserContext>();

/**
 * Collects both signals Chromium gives: the `securitypolicyviolation` DOM event (fired in the
 * frame where the policy refused something, also when the page caught the resulting error)
 * and the console message it logs.
 */
async function reportCspViolations(context: BrowserContext, violations: string[]): Promise<void> {
  if (checkedContexts.has(context)) return;
  checkedContexts.add(context);
  await context.exposeBinding(reportBindingName, (source, report: string) => {
    violations.push(`${report} (on ${source.frame.url()})`);
  });
  await context.addInitScript((bindingName) => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const location = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : '';
        void window[bindingName as typeof reportBindingName]?.(
          `event: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}${location}`,
        );
      },
      true,
    );
  }, reportBindingName);
  context.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) {
      violations.push(`console: ${message.text()} (on ${message.page()?.url() ?? 'no page'})`);
    }
  });
}
