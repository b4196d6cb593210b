import { chromium, type FullConfig } from '@playwright/test';
import { signInWithGoogle } from './tests/support/owners.ts';
import { SITE_OWNER } from './tests/support/site-owner.ts';

/**
 * Runs after the web server is up and before any spec: signs the fixed site owner in first,
 * so "the first account is the site owner" names an account specs can sign in as again,
 * whichever spec happens to run first.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const { baseURL, launchOptions } = config.projects[0]!.use;
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage({ baseURL });
    await signInWithGoogle(page, SITE_OWNER);
  } finally {
    await browser.close();
  }
}
