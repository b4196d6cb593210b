import { chromium, expect, type FullConfig, type Page } from '@playwright/test';
import { signInWithGoogle, type GoogleAccount } from './owners.ts';

/**
 * The installation's site owner in every run: the global setup signs it in before any spec, so
 * it is the first account of the fresh data directory and takes the owner role. Specs sign in
 * as it again (the emulator and the server know it by its Google id) to administer the site.
 */
export const SITE_OWNER: GoogleAccount = {
  sub: 'e2e-site-owner',
  email: 'site-owner@example.com',
  name: 'Site Owner',
};

/** Playwright's global setup: makes SITE_OWNER the site owner, or stops the run saying why. */
export default async function signInSiteOwner(config: FullConfig): Promise<void> {
  const { baseURL, launchOptions } = config.projects[0]!.use;
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage({ baseURL });
    await signInWithGoogle(page, SITE_OWNER);
    const profile = (await (await page.request.get('/api/auth/user')).json()) as {
      userPermissions?: { role?: string };
    };
    if (profile.userPermissions?.role !== 'owner') {
      throw new Error(
        `${SITE_OWNER.email} is not the site owner (role ${profile.userPermissions?.role}): ` +
          'the browser tests need a fresh E2E_DATA_DIR, whose first account becomes the owner.',
      );
    }
  } finally {
    await browser.close();
  }
}

/** Signs `page` in as SITE_OWNER and checks the account holds the owner role. */
export async function signInAsSiteOwner(page: Page): Promise<void> {
  await signInWithGoogle(page, SITE_OWNER);
  const user = await page.request.get('/api/auth/user');
  expect(((await user.json()) as { userPermissions: { role: string } }).userPermissions.role).toBe(
    'owner',
  );
}
