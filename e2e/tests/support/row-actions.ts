import { expect, type Locator, type Page } from '@playwright/test';

/** Below this width (Tailwind's `sm`) a row's actions fold into one menu. */
const MENU_BELOW_WIDTH = 640;

/**
 * A table row's action by its name, at any width: the icon button from the `sm` breakpoint
 * up; on a phone, the item of the row's "Actions for …" menu, which this opens first. Which
 * one is decided by the viewport, not by what the row shows at this instant: just after the
 * viewport changes, the row may still show the other width's controls.
 */
export async function rowAction(page: Page, row: Locator, name: string): Promise<Locator> {
  const isPhone = (page.viewportSize()?.width ?? MENU_BELOW_WIDTH) < MENU_BELOW_WIDTH;
  if (!isPhone) {
    return row
      .getByRole('link', { name, exact: true })
      .or(row.getByRole('button', { name, exact: true }));
  }
  // A menu that an earlier action closed may still be leaving (its exit animation, or a render
  // behind on a busy machine): the trigger toggles, so a click then would close it again.
  const menu = page.getByRole('menu');
  await expect(menu).toHaveCount(0);
  await row.getByRole('button', { name: /^Actions for / }).click();
  await expect(menu).toBeVisible();
  return menu.getByRole('menuitem', { name, exact: true });
}
