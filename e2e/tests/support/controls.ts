import { expect, type Locator, type Page } from '@playwright/test';

/** Opens a select (a Radix combobox) and picks an option; the list is portaled to the body. */
export async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Picks an option as chooseOption does, then expects the select to show it. */
export async function chooseAndExpectShown(
  page: Page,
  select: Locator,
  option: string,
): Promise<void> {
  await chooseOption(page, select, option);
  await expect(select).toHaveText(option);
}

/** Whether the element the locator finds is the page's focused element. */
export async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => document.activeElement === element);
}

/** The table row with a cell that reads `text` (exactly, as the whole of a text node). */
export function rowWithCellText(page: Page, text: string): Locator {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('cell').getByText(text, { exact: true }) });
}
