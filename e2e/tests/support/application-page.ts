import type { Application } from '@latchkey/contracts';
import { expect, type Page } from '@playwright/test';
import { createApplication } from './owner-api.ts';

/**
 * A new application of the owner signed in on `page` (through the owner API), its management
 * page open on `tab`.
 */
export async function openNewApplicationTab(
  page: Page,
  name: string,
  tab: string,
): Promise<Application> {
  const application = await createApplication(page, name);
  await page.goto(`/app/${application.id}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
  return application;
}
