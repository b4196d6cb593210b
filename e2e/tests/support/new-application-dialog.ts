import type { Locator, Page } from '@playwright/test';

/**
 * Creates an application as an owner does on the dashboard: New Application, the name (and
 * the description, if any), Create Application. Returns the dialog, for the spec to check
 * how it closes.
 */
export async function submitNewApplication(
  page: Page,
  name: string,
  description?: string,
): Promise<Locator> {
  await page.getByRole('button', { name: 'New Application' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Application' });
  await dialog.getByLabel('Name').fill(name);
  if (description) await dialog.getByLabel('Description (optional)').fill(description);
  await dialog.getByRole('button', { name: 'Create Application' }).click();
  return dialog;
}
