import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

/** What the seeded owner has, for pages whose address or content depends on it. */
export interface SeededConsole {
  applicationId: number;
  applicationName: string;
}

export interface ConsolePage {
  /** Names the checks and the screenshot files. */
  name: string;
  /** The console route (a path pattern in App.tsx, or '*' for the 404 page) this covers. */
  route: string;
  signedIn: boolean;
  path: (seed: SeededConsole) => string;
  /** The page's level-1 heading, proof it rendered rather than a spinner or the 404 page. */
  heading: (seed: SeededConsole) => string | RegExp;
  /** The page shows a table whose rows have actions (the seeded data fills it). */
  hasRowActions?: boolean;
  /** Brings the page into the state to check after it loaded (e.g. opens a tab). */
  prepare?: (page: Page, seed: SeededConsole) => Promise<void>;
}

const NOT_FOUND_HEADING = '404 Page Not Found';

/**
 * Every page of the console, signed out and signed in. The layout and accessibility checks run
 * on each; a page added to the console's routes must be added here (a check compares the two).
 */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  {
    name: 'landing',
    route: '/',
    signedIn: false,
    path: () => '/',
    heading: () => /Protect your software/,
  },
  {
    name: 'sign-in',
    route: '/firebase-login',
    signedIn: false,
    path: () => '/firebase-login',
    heading: () => 'Create Your Account',
  },
  {
    name: 'not-found-signed-out',
    route: '*',
    signedIn: false,
    path: () => '/no-such-page',
    heading: () => NOT_FOUND_HEADING,
  },
  { name: 'home', route: '/', signedIn: true, path: () => '/', heading: () => /Welcome back/ },
  {
    name: 'dashboard-applications',
    hasRowActions: true,
    route: '/dashboard',
    signedIn: true,
    path: () => '/dashboard',
    heading: () => 'Dashboard',
  },
  {
    name: 'dashboard-users',
    hasRowActions: true,
    route: '/dashboard',
    signedIn: true,
    path: () => '/dashboard',
    heading: () => 'Dashboard',
    prepare: async (page, seed) => {
      await page.getByTestId(`application-row-${seed.applicationId}`).click();
      await page.getByRole('tab', { name: `Users (${seed.applicationName})` }).click();
      await expect(
        page.getByRole('heading', { name: `Users of ${seed.applicationName}` }),
      ).toBeVisible();
    },
  },
  {
    name: 'application-overview',
    route: '/app/:id',
    signedIn: true,
    path: (seed) => `/app/${seed.applicationId}`,
    heading: (seed) => seed.applicationName,
  },
  {
    name: 'application-users',
    hasRowActions: true,
    route: '/app/:id',
    signedIn: true,
    path: (seed) => `/app/${seed.applicationId}`,
    heading: (seed) => seed.applicationName,
    prepare: async (page) => {
      await page.getByRole('tab', { name: /^Users/ }).click();
      await expect(page.getByRole('cell', { name: 'carol', exact: true })).toBeVisible();
    },
  },
  {
    name: 'webhooks',
    hasRowActions: true,
    route: '/webhooks',
    signedIn: true,
    path: () => '/webhooks',
    heading: () => 'Webhooks',
  },
  {
    name: 'blacklist',
    hasRowActions: true,
    route: '/blacklist',
    signedIn: true,
    path: () => '/blacklist',
    heading: () => 'Blacklist',
  },
  {
    name: 'activity-logs',
    route: '/activity-logs',
    signedIn: true,
    path: () => '/activity-logs',
    heading: () => 'Activity Logs',
  },
  {
    name: 'integration',
    route: '/integration',
    signedIn: true,
    // With an application chosen, so the checks cover the code box, tabs and badges.
    path: (seed) => `/integration?app=${seed.applicationId}`,
    heading: () => 'Integration Examples',
  },
  {
    name: 'docs',
    route: '/docs',
    signedIn: true,
    path: () => '/docs',
    heading: () => 'Documentation',
  },
  {
    name: 'code-editor',
    route: '/code-editor',
    signedIn: true,
    path: () => '/code-editor',
    heading: () => 'Code Editor',
  },
  {
    name: 'user-management',
    route: '/user-management',
    signedIn: true,
    path: () => '/user-management',
    heading: () => 'User Management',
  },
  {
    name: 'welcome',
    route: '/firebase-login',
    signedIn: true,
    path: () => '/firebase-login',
    heading: () => /^Welcome, /,
  },
  {
    name: 'not-found-signed-in',
    route: '*',
    signedIn: true,
    path: () => '/no-such-page',
    heading: () => NOT_FOUND_HEADING,
  },
];

/**
 * The console's routes as App.tsx declares them: `path` props of <Route> in the signed-out and
 * signed-in route tables, and '*' for each table's catch-all (the 404 page).
 */
export function declaredConsoleRoutes(): { signedIn: boolean; route: string }[] {
  const source = readFileSync(
    join(import.meta.dirname, '../../../apps/console/src/App.tsx'),
    'utf8',
  );
  const tables = [
    { signedIn: false, start: source.indexOf('function SignedOutRoutes') },
    { signedIn: true, start: source.indexOf('function SignedInRoutes') },
  ];
  expect(tables.every((table) => table.start >= 0)).toBe(true);
  return tables.flatMap(({ signedIn, start }) => {
    const body = source.slice(start, source.indexOf('</Switch>', start));
    return [...body.matchAll(/<Route\b([^>]*)\/>/g)].map((match) => ({
      signedIn,
      route: /path="([^"]+)"/.exec(match[1]!)?.[1] ?? '*',
    }));
  });
}
