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

/**
 * Presses Escape once `layer` (a Radix dialog, alert dialog or other dismissable layer) is
 * listening for it. Radix attaches a layer's Escape listener only after the layer has been
 * registered and the page has re-rendered once more, so a modal layer first shows focus in
 * its first control and only then marks itself `pointer-events: auto` (set in that second
 * render) and listens. A key pressed in between goes to the layer beneath (a toast) or to
 * nowhere: a person cannot type that fast, a test on a loaded machine can.
 */
export async function pressEscapeOn(page: Page, layer: Locator): Promise<void> {
  await expect(layer).toHaveAttribute('style', /pointer-events: auto/);
  // The listener is attached in that render's effects, which React may run a frame later.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve))),
  );
  await page.keyboard.press('Escape');
}
