import type { Locator, Page } from '@playwright/test';

/**
 * A toast by its text. Located by markup, not role: while a modal dialog is open, everything
 * outside it (the toast region too) is aria-hidden.
 */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('li[data-state="open"]').getByText(text, { exact: true });
}
