import { expect, type Locator, type Page } from '@playwright/test';

/**
 * A table row's action by its name, at any width: the icon button from the `sm` breakpoint
 * up; on a phone, the item of the row's "Actions for …" menu, which this opens first.
 */
export async function rowAction(page: Page, row: Locator, name: string): Promise<Locator> {
  const menuButton = row.getByRole('button', { name: /^Actions for / });
  if ((await menuButton.count()) === 0) {
    return row
      .getByRole('link', { name, exact: true })
      .or(row.getByRole('button', { name, exact: true }));
  }
  // A menu that an earlier action closed may still be leaving (its exit animation, or a render
  // behind on a busy machine): the trigger toggles, so a click then would close it again.
  const menu = page.getByRole('menu');
  await expect(menu).toHaveCount(0);
  await menuButton.click();
  await expect(menu).toBeVisible();
  return menu.getByRole('menuitem', { name, exact: true });
}
